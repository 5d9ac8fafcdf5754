//! The npm packages the editor's 3D view imports (cubing.js's `<twisty-player>`), served at
//! `/modules/<package>/<file>` from their install (`npm ci --prefix web` puts them in
//! `web/node_modules`), never from copies in the repository or in the binary.
//!
//! Only the packages in [`PACKAGES`] are served, only regular files inside each package's
//! folder (after symbolic links are resolved), and only paths made of plain name characters:
//! the route can read nothing else on the machine. Without the install every module request
//! gets a 404 whose message says how to install it, and the page keeps its flat net.

use std::path::{Path, PathBuf};

/// The packages the page may import, by their npm names: cubing, and three (three.js), whose
/// modules cubing's 3D renderer imports by bare name (`three/src/...`, mapped by the page's
/// import map).
pub const PACKAGES: &[&str] = &["cubing", "three"];

/// The folder `npm ci --prefix web` installs into, relative to the repository; the default of
/// `cubelab serve --web-modules`.
pub const DEFAULT_DIR: &str = "web/node_modules";

/// Why a module path was not served.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ModuleError {
    #[error(
        "the 3D view's package {package} is not installed in {dir}: run `npm ci --prefix web` in the repository, then restart `cubelab serve` (or pass --web-modules DIR)"
    )]
    NotInstalled { package: String, dir: String },
    #[error(
        "/modules/ serves only the packages {packages} (files inside them, by plain names): {path} is none of them"
    )]
    NotServed { path: String, packages: String },
    #[error("{path} is not a file of the installed package")]
    NoSuchFile { path: String },
}

/// The file that `/modules/<path>` names under `root`, checked as the module doc says.
pub fn resolve(root: &Path, path: &str) -> Result<PathBuf, ModuleError> {
    let not_served = || ModuleError::NotServed {
        path: cubelab::support::units::quoted(&format!("/modules/{path}"), 120).into_owned(),
        packages: PACKAGES.join(", "),
    };
    let segments: Vec<&str> = path.split('/').collect();
    let plain = |s: &&str| {
        !s.is_empty()
            && *s != "."
            && *s != ".."
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-@".contains(&b))
    };
    if segments.len() < 2 || !segments.iter().all(plain) {
        return Err(not_served());
    }
    let package = segments[0];
    if !PACKAGES.contains(&package) {
        return Err(not_served());
    }
    let Ok(package_dir) = root.join(package).canonicalize() else {
        return Err(ModuleError::NotInstalled {
            package: package.to_string(),
            dir: root.display().to_string(),
        });
    };
    let no_file = || ModuleError::NoSuchFile {
        path: cubelab::support::units::quoted(&format!("/modules/{path}"), 120).into_owned(),
    };
    let file = segments[1..]
        .iter()
        .fold(package_dir.clone(), |p, s| p.join(s))
        .canonicalize()
        .map_err(|_| no_file())?;
    // A link inside the package may point anywhere: serve only what stays inside it.
    if !file.starts_with(&package_dir) || !file.is_file() {
        return Err(no_file());
    }
    Ok(file)
}

/// The `Content-Type` of a served file, by its extension (browsers refuse a module script
/// served as anything but JavaScript).
pub fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()) {
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn install() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("cubing/dist/lib/cubing/twisty");
        std::fs::create_dir_all(&lib).unwrap();
        std::fs::write(lib.join("index.js"), "export {}").unwrap();
        std::fs::create_dir_all(dir.path().join("other")).unwrap();
        std::fs::write(dir.path().join("other/secret.js"), "x").unwrap();
        dir
    }

    #[test]
    fn serves_files_of_listed_packages_only() {
        let dir = install();
        let file = resolve(dir.path(), "cubing/dist/lib/cubing/twisty/index.js").unwrap();
        assert!(file.ends_with("twisty/index.js"));
        assert_eq!(content_type(&file), "text/javascript; charset=utf-8");
        for path in [
            "other/secret.js",
            "cubing/../other/secret.js",
            "cubing/./dist",
            "cubing//dist",
            "cubing",
            "cubing/dist/lib/cubing/twisty/index.js?x",
            "/etc/passwd",
        ] {
            assert!(
                matches!(
                    resolve(dir.path(), path),
                    Err(ModuleError::NotServed { .. })
                ),
                "{path}"
            );
        }
        // A folder, a missing file: not files of the package.
        for path in ["cubing/dist", "cubing/dist/none.js"] {
            assert!(
                matches!(
                    resolve(dir.path(), path),
                    Err(ModuleError::NoSuchFile { .. })
                ),
                "{path}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_package_is_not_followed() {
        let dir = install();
        std::os::unix::fs::symlink(
            dir.path().join("other/secret.js"),
            dir.path().join("cubing/leak.js"),
        )
        .unwrap();
        assert!(matches!(
            resolve(dir.path(), "cubing/leak.js"),
            Err(ModuleError::NoSuchFile { .. })
        ));
    }

    #[test]
    fn a_missing_install_says_how_to_install() {
        let dir = tempfile::tempdir().unwrap();
        let error = resolve(dir.path(), "cubing/dist/x.js").unwrap_err();
        assert!(error.to_string().contains("npm ci --prefix web"), "{error}");
    }
}
