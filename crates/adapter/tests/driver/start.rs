//! Sessions that cannot start: each is a typed StartError the caller turns into exit 2.

use std::fs;

use bqsuite_adapter::{Adapter, Bounds, Exit, Fault, Shape, StartError};

use crate::kit::*;

#[test]
fn a_program_that_does_not_exist_is_named_as_given() {
    for program in [
        "/nonexistent/dir/adapter",
        "bqsuite-adapter-that-is-nowhere",
    ] {
        let error = Adapter::start(program, ["--flag"], &info(), &Bounds::DEFAULT)
            .err()
            .unwrap();
        assert_eq!(
            error,
            StartError::NotFound {
                program: program.into()
            }
        );
    }
}

#[cfg(unix)]
#[test]
fn a_file_that_is_not_executable_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("adapter.py");
    fs::write(&path, "#!/usr/bin/env python3\n").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    let error = Adapter::start(&path, [] as [&str; 0], &info(), &Bounds::DEFAULT)
        .err()
        .unwrap();
    assert_eq!(
        error,
        StartError::NotExecutable {
            program: path.to_string_lossy().into_owned()
        }
    );
}

#[test]
fn an_adapter_that_exits_before_the_start_reply_is_refused_with_its_stderr() {
    let script = python("sys.stderr.write('no config file\\n')\nsys.exit(4)\n");
    let error = start(&script, &Bounds::DEFAULT).err().unwrap();
    assert_eq!(
        error,
        StartError::Exited {
            status: Exit::Code(4),
            stderr_tail: "no config file\n".into()
        }
    );
}

#[test]
fn an_adapter_that_does_not_answer_the_start_times_out() {
    let script = python("time.sleep(3600)\n");
    let error = within(move || start(&script, &short()).err().unwrap());
    assert_eq!(error, StartError::Timeout { after: SHORT });
}

#[test]
fn an_adapter_of_another_protocol_version_is_refused() {
    let script =
        python("sys.stdin.readline()\nsend({'protocol': 2, 'implementation': {'name': 'x'}})\n");
    let error = start(&script, &Bounds::DEFAULT).err().unwrap();
    assert_eq!(error, StartError::UnknownProtocol(2));
    assert!(
        error
            .to_string()
            .starts_with("the adapter speaks protocol 2; this bqsuite speaks 1")
    );
}

#[test]
fn a_start_reply_of_the_wrong_shape_is_refused() {
    let script = python("sys.stdin.readline()\nsend({'protocol': 1})\n");
    let error = start(&script, &Bounds::DEFAULT).err().unwrap();
    assert_eq!(
        error,
        StartError::BadShape(Shape::Missing("implementation".into()))
    );
    let script = python("sys.stdin.readline()\nraw(b'ready\\n')\n");
    let error = start(&script, &Bounds::DEFAULT).err().unwrap();
    assert!(
        matches!(error, StartError::BadReply(Fault::NotJson { .. })),
        "{error:?}"
    );
}
