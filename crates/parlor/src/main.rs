//! The `parlor` binary.

fn main() -> std::process::ExitCode {
    parlor::main_entry()
}
