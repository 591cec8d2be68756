//! The runners of the SBP suite: their refusals of malformed cases, and odd shapes.

mod malformed;
mod shapes;
