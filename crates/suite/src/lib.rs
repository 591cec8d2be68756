//! A conformance suite on disk and in its release asset, with no command of its own: the bounded
//! loader of the vendored set ([`load`]), what a suite may contain ([`layout`]) and how much
//! ([`limits`]), version-aware rules ([`rules`]), the proposal overlay ([`overlay`]), the digest
//! index of real releases ([`releases`]), writing a vendored copy ([`vendor`]) one writer at a time ([`lock`]); the release
//! asset's names and its reader ([`archive`]) and writers ([`release`]); the change classifier
//! that `diff` and drift reports share ([`classify`], [`drift`]); and the comparison of a vendored
//! copy with a release that `fetch` and `sync` share ([`compare`]).

pub mod archive;
pub mod classify;
pub mod compare;
pub mod drift;
pub mod kind;
pub mod layout;
pub mod limits;
pub mod load;
pub mod lock;
pub mod overlay;
pub mod release;
pub mod releases;
pub mod rules;
pub mod vendor;

pub use load::Suite;
