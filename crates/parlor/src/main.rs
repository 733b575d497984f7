//! The `parlor` binary.

fn main() -> std::process::ExitCode {
    parlor::terminal_app::main_entry()
}
