//! The archive verifier behind `fetch`: what it accepts of the assets real writers make, and no
//! parser differential with the mainstream tar readers.

mod differential;
mod suites;
mod variants;
