//! The suite on disk: loading it, and enumerating its cases.

pub mod drift;
pub mod ids;
pub mod index;
pub mod layout;
pub mod limits;
pub mod load;
pub mod overlay;
pub mod releases;
pub mod rules;
pub mod vendor;

pub use load::Suite;
