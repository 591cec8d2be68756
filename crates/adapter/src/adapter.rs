//! A session with an adapter: start, one op request at a time, the restart-once policy, stop.

use std::ffi::{OsStr, OsString};
use std::sync::Arc;

use serde_json::Value;

use crate::bounds::Bounds;
use crate::fault::{Fault, StartError};
use crate::process::{Process, Stop, Tail};
use crate::protocol::{self, Answer, Implementation, OpRequest, StartInfo};

/// Something that happened to the adapter process during a session, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Lifecycle {
    /// The process ended (or was killed) during the request `seq`, of case `case`, with `fault`
    /// (that request's answer).
    Died {
        case: String,
        seq: u64,
        fault: Fault,
    },
    /// A new process was started and answered the start request, before the request of case
    /// `case` (the first request it was sent).
    Restarted {
        case: String,
        implementation: Implementation,
    },
    /// Starting a new process before case `case` failed: the session is stopped.
    RestartFailed { case: String, error: StartError },
}

/// Where the session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Running,
    /// The process died; the next request starts a new one.
    Dead,
    /// The process died and may not be restarted: every request is refused.
    Stopped,
}

/// A session with one adapter command. See the crate's documentation for the model.
pub struct Adapter {
    program: OsString,
    args: Vec<OsString>,
    info: StartInfo,
    bounds: Bounds,
    process: Option<Process>,
    /// The stderr tail of the latest process, kept after it died.
    stderr: Arc<Tail>,
    implementation: Implementation,
    seq: u64,
    state: State,
    restarts_left: u32,
    history: Vec<Lifecycle>,
}

impl Adapter {
    /// Starts `program` with `args` and holds the start exchange: the start request (with
    /// `info`), then its reply, within `bounds.timeout`.
    pub fn start<I, S>(
        program: impl AsRef<OsStr>,
        args: I,
        info: &StartInfo,
        bounds: &Bounds,
    ) -> Result<Adapter, StartError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let program = program.as_ref().to_os_string();
        let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().into()).collect();
        let (process, implementation) = begin(&program, &args, info, bounds)?;
        Ok(Adapter {
            stderr: process.stderr(),
            program,
            args,
            info: info.clone(),
            bounds: bounds.clone(),
            process: Some(process),
            implementation,
            seq: 0,
            state: State::Running,
            restarts_left: 1,
            history: Vec::new(),
        })
    }

    /// Sends one op request for case `case` and returns its answer. On a dead adapter this
    /// first starts a new process (once per session); the request that met the death is not
    /// sent again. Once the adapter may not be restarted, returns `Errored(Fault::Stopped)`
    /// without sending anything.
    pub fn call(&mut self, case: &str, op: &str, input: &Value) -> Answer {
        if !self.ready(case) {
            return Answer::Errored(Fault::Stopped);
        }
        let Some(process) = self.process.as_mut() else {
            return Answer::Errored(Fault::Stopped);
        };
        self.seq += 1;
        let mut line = Vec::new();
        OpRequest {
            seq: self.seq,
            case,
            op,
            input,
        }
        .write_line(&mut line);
        let answer = match process.exchange(line, &self.bounds) {
            Ok(reply) => protocol::parse_reply(&reply, self.seq),
            Err(fault) => Answer::Errored(fault),
        };
        if let Answer::Errored(fault) = &answer
            && fault.ends_adapter()
        {
            self.died(case, fault.clone());
        }
        answer
    }

    /// Whether a process is there to take the request, starting a new one if the policy
    /// allows.
    fn ready(&mut self, case: &str) -> bool {
        match self.state {
            State::Running => true,
            State::Stopped => false,
            State::Dead => {
                self.restarts_left -= 1;
                match begin(&self.program, &self.args, &self.info, &self.bounds) {
                    Ok((process, implementation)) => {
                        self.stderr = process.stderr();
                        self.process = Some(process);
                        self.implementation = implementation.clone();
                        self.state = State::Running;
                        self.history.push(Lifecycle::Restarted {
                            case: case.to_string(),
                            implementation,
                        });
                        true
                    }
                    Err(error) => {
                        self.state = State::Stopped;
                        self.history.push(Lifecycle::RestartFailed {
                            case: case.to_string(),
                            error,
                        });
                        false
                    }
                }
            }
        }
    }

    fn died(&mut self, case: &str, fault: Fault) {
        // Dropping the process kills and reaps it (if the fault has not already).
        self.process = None;
        self.state = if self.restarts_left > 0 {
            State::Dead
        } else {
            State::Stopped
        };
        self.history.push(Lifecycle::Died {
            case: case.to_string(),
            seq: self.seq,
            fault,
        });
    }

    /// Ends the session: sends the stop request, closes the adapter's stdin, waits up to
    /// `bounds.stop_grace` for it to exit, then kills it. `None` when no process was running.
    pub fn stop(mut self) -> Option<Stop> {
        let grace = self.bounds.stop_grace;
        self.process.take().map(|process| process.stop(grace))
    }

    /// What the adapter said it is (the latest start reply: a restarted adapter answers again).
    pub fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    /// What happened to the adapter process, in order: deaths, restarts.
    pub fn history(&self) -> &[Lifecycle] {
        &self.history
    }

    /// Whether the adapter was restarted.
    pub fn restarted(&self) -> bool {
        self.history
            .iter()
            .any(|e| matches!(e, Lifecycle::Restarted { .. }))
    }

    /// Whether every further request is refused with [`Fault::Stopped`].
    pub fn is_stopped(&self) -> bool {
        self.state == State::Stopped
    }

    /// The seq of the latest op request sent (0 before the first). Seqs count on across a
    /// restart, so each names one request of the session.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The process id of the running adapter process, if one is running.
    pub fn id(&self) -> Option<u32> {
        self.process.as_ref().map(Process::id)
    }

    /// The end of the latest adapter process's standard error, so far (at most
    /// `bounds.stderr_tail` bytes; untrusted text, to be escaped before it is shown).
    pub fn stderr_tail(&self) -> String {
        self.stderr.text()
    }
}

/// Starts a process and holds the start exchange with it.
fn begin(
    program: &OsStr,
    args: &[OsString],
    info: &StartInfo,
    bounds: &Bounds,
) -> Result<(Process, Implementation), StartError> {
    let mut process = Process::spawn(program, args, bounds)?;
    let reply = process
        .exchange(info.request_line(), bounds)
        .map_err(StartError::from_fault)?;
    let implementation = protocol::parse_start_reply(&reply)?;
    Ok((process, implementation))
}
