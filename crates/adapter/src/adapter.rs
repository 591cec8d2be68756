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

/// How many requests [`Adapter::call_many`] keeps in flight at once.
pub const WINDOW: usize = 64;

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

    /// Sends the op requests of `inputs` (one operation of case `case` on each) and returns
    /// their answers, in order. Up to [`WINDOW`] requests are in flight at once, so the cost of
    /// a round trip is paid once per window rather than once per request; an adapter that reads
    /// a request and answers it before reading the next needs nothing special. Each reply is
    /// awaited within `bounds.timeout`. After the first answer that is not taken (errored), the
    /// replies to the requests still in flight are read and dropped (an adapter that cannot
    /// keep up with that is taken as dead), and the answers not yet read are `Stopped`.
    pub fn call_many(&mut self, case: &str, op: &str, inputs: &[Value]) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(inputs.len());
        if !self.ready(case) {
            answers.resize_with(inputs.len(), || Answer::Errored(Fault::Stopped));
            return answers;
        }
        let first = self.seq + 1;
        let mut sent = 0;
        let mut fault = None;
        let mut in_flight = 0;
        while answers.len() < inputs.len() {
            let Some(process) = self.process.as_mut() else {
                break;
            };
            if sent == 0
                && let Err(f) = process.drop_stale(&self.bounds)
            {
                fault = Some(f);
                break;
            }
            // Keep the window full.
            if in_flight < WINDOW && sent < inputs.len() {
                let mut lines = Vec::new();
                while in_flight < WINDOW && sent < inputs.len() {
                    self.seq += 1;
                    OpRequest {
                        seq: self.seq,
                        case,
                        op,
                        input: &inputs[sent],
                    }
                    .write_line(&mut lines);
                    sent += 1;
                    in_flight += 1;
                }
                process.send(lines);
            }
            let expected = first + answers.len() as u64;
            let answer = match process.receive(&self.bounds) {
                Ok(reply) => protocol::parse_reply(&reply, expected),
                Err(f) => Answer::Errored(f),
            };
            in_flight -= 1;
            if let Answer::Errored(f) = &answer {
                fault = Some(f.clone());
                answers.push(answer);
                break;
            }
            answers.push(answer);
        }
        if let Some(f) = fault {
            self.settle(case, f, in_flight);
        }
        answers.resize_with(inputs.len(), || Answer::Errored(Fault::Stopped));
        answers
    }

    /// After `fault` in a batch: an adapter the fault ended is dead; otherwise the `in_flight`
    /// replies still due are read and dropped, and an adapter that does not give them is dead.
    fn settle(&mut self, case: &str, fault: Fault, in_flight: usize) {
        if fault.ends_adapter() {
            self.died(case, fault);
            return;
        }
        for _ in 0..in_flight {
            let Some(process) = self.process.as_mut() else {
                return;
            };
            if let Err(f) = process.receive(&self.bounds) {
                let f = if f.ends_adapter() { f } else { fault.clone() };
                self.died(case, f);
                return;
            }
        }
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
