//! The driver against real child processes (Python scripts written to a temporary directory),
//! and the protocol's messages on bytes.

#![cfg(unix)]

mod hostile;
mod kit;
mod pipelined;
mod replies;
mod session;
mod speed;
mod start;
