//! Writes the page's `index.html` from its template, with the graphical face's first screen and stylesheet in it
//! (`parlor_web::faces::first`): `web-page TEMPLATE OUT`. Run natively by `scripts/web-build.sh`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [template, out] = args.as_slice() else {
        eprintln!("usage: web-page TEMPLATE OUT");
        return ExitCode::from(2);
    };
    let written = std::fs::read_to_string(template)
        .map_err(|e| format!("reading {template}: {e}"))
        .and_then(|t| parlor_web::faces::first::page(&t).map_err(|e| format!("{template}: {e}")))
        .and_then(|page| std::fs::write(out, page).map_err(|e| format!("writing {out}: {e}")));
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("web-page: {e}");
            ExitCode::FAILURE
        }
    }
}
