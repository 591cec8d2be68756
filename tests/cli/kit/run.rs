//! Running the real `bqsuite` binary as a user would (without the ambient environment that
//! changes what it prints or where it connects), and reading what it printed.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

/// Environment variables that change what bqsuite prints (GitHub Actions, colour, the width of
/// help) or where it connects (proxies): the tests run the binary without them, wherever they run.
pub const AMBIENT_ENV: &[&str] = &[
    "SOURCE_DATE_EPOCH",
    "GITHUB_ACTIONS",
    "GITHUB_STEP_SUMMARY",
    "GITHUB_WORKSPACE",
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "COLUMNS",
    "BQ_CONFORMANCE_BASE_URL",
    "HTTP_PROXY",
    "http_proxy",
    "HTTPS_PROXY",
    "https_proxy",
    "ALL_PROXY",
    "all_proxy",
];

/// A `bqsuite` command without the ambient environment of [`AMBIENT_ENV`].
pub fn command() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bqsuite"));
    for name in AMBIENT_ENV {
        cmd.env_remove(name);
    }
    cmd
}

/// Runs `bqsuite` with `args` in `cwd`.
pub fn bqsuite_in(cwd: &Path, args: &[impl AsRef<OsStr>]) -> Output {
    command()
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run bqsuite")
}

/// Runs `bqsuite` with `args` in the crate root.
pub fn bqsuite(args: &[impl AsRef<OsStr>]) -> Output {
    bqsuite_in(super::root(), args)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

/// Validates `suite` with JSON output; returns (exit code, diagnostics).
pub fn validate_json(suite: &Path) -> (i32, Vec<Value>) {
    let out = bqsuite(&["validate", suite.to_str().unwrap(), "--format", "json"]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| {
        panic!(
            "validate --format json printed invalid JSON ({e}): {}",
            stdout(&out)
        )
    });
    (
        code(&out),
        doc["diagnostics"].as_array().cloned().unwrap_or_default(),
    )
}

/// Asserts validation exits 1 with a finding of `code` whose fields contain the given
/// `(field, substring)` pairs; returns that finding.
pub fn assert_finding(suite: &Path, code_name: &str, fields: &[(&str, &str)]) -> Value {
    let (exit, diags) = validate_json(suite);
    assert_eq!(exit, 1, "expected exit 1; findings: {diags:#?}");
    let found = diags.iter().find(|d| {
        d["code"] == code_name
            && fields.iter().all(|(field, want)| {
                d[*field]
                    .as_str()
                    .map(|s| s.contains(want))
                    .unwrap_or_else(|| d[*field].to_string().contains(want))
            })
    });
    found
        .cloned()
        .unwrap_or_else(|| panic!("no `{code_name}` finding with {fields:?}; findings: {diags:#?}"))
}

/// Makes `dir` unwritable even for root (the immutable attribute), or by mode for other users.
/// Returns false when neither is enforced here.
#[cfg(unix)]
pub fn make_read_only(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let immutable = std::process::Command::new("chattr")
        .arg("+i")
        .arg(dir)
        .output()
        .is_ok_and(|o| o.status.success());
    if !immutable {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o555)).unwrap();
    }
    let probe = dir.join(".probe");
    if fs::write(&probe, "").is_ok() {
        let _ = fs::remove_file(&probe);
        return false;
    }
    true
}

#[cfg(unix)]
pub fn make_writable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::process::Command::new("chattr")
        .arg("-i")
        .arg(dir)
        .output();
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs `bqsuite` with `args` in `cwd`, with extra environment variables.
pub fn run_in(cwd: &Path, args: &[impl AsRef<OsStr>], env: &[(&str, &str)]) -> Output {
    let mut cmd = command();
    cmd.args(args).current_dir(cwd);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run bqsuite")
}

/// Runs a command line as a user pastes it into a POSIX shell in `cwd`, with the built `bqsuite`
/// first on PATH and without the ambient environment of [`AMBIENT_ENV`] (so no
/// `BQ_CONFORMANCE_BASE_URL`: the command must carry what it needs).
pub fn paste(cwd: &Path, command_line: &str) -> Output {
    shell_in(cwd, command_line, &[])
}

/// [`paste`], with options for `sh` (`-e`: stop at the first failing command).
pub fn shell_in(cwd: &Path, script: &str, sh_options: &[&str]) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_bqsuite")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new("sh");
    cmd.args(sh_options)
        .arg("-c")
        .arg(script)
        .current_dir(cwd)
        .env("PATH", path);
    for name in AMBIENT_ENV {
        cmd.env_remove(name);
    }
    cmd.output().expect("run sh")
}

/// The command between the backticks of a report's line starting with `fix: `.
pub fn fix_command(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with("fix: "))
        .unwrap_or_else(|| panic!("no fix line in:\n{text}"));
    line.split('`').nth(1).unwrap().to_string()
}

/// Makes a FIFO at `path` (an input that would hang a reader that waits for a writer).
pub fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// The row of `target` in a `sync --check --format json` document's `data.targets`.
pub fn row<'a>(doc: &'a Value, target: &str) -> &'a Value {
    doc["data"]["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["target"] == target)
        .unwrap_or_else(|| panic!("no row for {target} in {doc}"))
}

/// Finds `program` on PATH, or fails naming the Debian package that brings it: a test that
/// compares bqsuite with a real tool must not pass for want of the tool (`tests/tools.sh`, which
/// `.ci/run` runs first, installs every one).
pub fn need_tool(program: &str, package: &str) -> PathBuf {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!("`{program}` is not installed: install the Debian package {package} (bash tests/tools.sh does)")
        })
}

/// The reference model's results for the bundled suite (`bqsuite eval suite`, run once).
pub fn reference_results() -> Value {
    static REFERENCE: OnceLock<Value> = OnceLock::new();
    REFERENCE
        .get_or_init(|| {
            let out = bqsuite(&["eval", "suite"]);
            assert_eq!(code(&out), 0, "eval failed: {}", stderr(&out));
            serde_json::from_str(&stdout(&out)).expect("eval prints JSON")
        })
        .clone()
}

/// `sync --suite SUITE --workspace WS --targets TARGETS`, then `extra`.
pub fn sync_args(suite: &Path, ws: &Path, targets: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "sync".into(),
        "--suite".into(),
        suite.to_str().unwrap().into(),
        "--workspace".into(),
        ws.to_str().unwrap().into(),
        "--targets".into(),
        targets.to_str().unwrap().into(),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

/// A process's standard output then its standard error.
pub fn text(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

/// Standard output as exactly one JSON document (a panic showing both streams otherwise), whose
/// counts are those of its findings ([`assert_counts`]).
pub fn json(o: &Output) -> Value {
    let doc = serde_json::from_str(&stdout(o))
        .unwrap_or_else(|e| panic!("not one JSON document ({e}): {}{}", stdout(o), stderr(o)));
    assert_counts(&doc);
    doc
}

/// Asserts that a `--format json` document's `errors` and `warnings` are the numbers of its
/// findings of each severity: a count never differs from the list beside it.
pub fn assert_counts(doc: &Value) {
    let listed = |severity: &str| {
        doc["diagnostics"]
            .as_array()
            .unwrap_or_else(|| panic!("no diagnostics list: {doc:#}"))
            .iter()
            .filter(|d| d["severity"] == severity)
            .count()
    };
    for (count, severity) in [("errors", "error"), ("warnings", "warning")] {
        assert_eq!(
            doc[count].as_u64(),
            Some(listed(severity) as u64),
            "`{count}` is not the number of findings of severity {severity}: {doc:#}"
        );
    }
}

/// The findings of `code` in a report.
pub fn findings<'a>(doc: &'a Value, code: &str) -> Vec<&'a Value> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .collect()
}

/// `bqsuite release SUITE --out OUT`, which must succeed; returns the asset's path (the one its
/// `--format json` report names: the asset is named by the suite's description).
pub fn released(suite: &Path, out: &Path) -> PathBuf {
    let run = bqsuite(&[
        "release",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&run), 0, "{}{}", stdout(&run), stderr(&run));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    PathBuf::from(doc["data"]["asset"]["path"].as_str().unwrap())
}

/// Runs `bqsuite` with `args` on a terminal `columns` wide (a pseudo-terminal that util-linux's
/// `script` opens, with TERM=xterm and without the ambient environment); returns what the
/// terminal received, with `\n` line ends.
pub fn on_terminal(args: &[&str], columns: u16) -> String {
    let words: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_bqsuite"))
        .chain(args.iter().copied())
        .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
        .collect();
    let line = format!("stty cols {columns} rows 50 && exec {}", words.join(" "));
    let mut cmd = Command::new(need_tool("script", "bsdutils"));
    for name in AMBIENT_ENV {
        cmd.env_remove(name);
    }
    let out = cmd
        .env("TERM", "xterm")
        .args(["-q", "-e", "-c", &line, "/dev/null"])
        .current_dir(super::root())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run script");
    assert!(
        out.status.success(),
        "bqsuite {args:?} on a terminal: {}{}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out).replace("\r\n", "\n")
}

/// The commands a help text lists in its Commands section (the first word of each entry; a
/// wrapped description is indented further than an entry, and is not one).
pub fn help_commands(help: &str) -> Vec<String> {
    let Some(section) = help.split("\nCommands:\n").nth(1) else {
        return Vec::new();
    };
    section
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}
