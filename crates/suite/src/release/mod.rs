//! The writers of a release asset: the release tree's walk ([`tree`]), its ustar headers
//! ([`ustar`]), the gzip member ([`gzip`], compressed by several threads in [`parallel`]), and the
//! packaging that streams a suite through them to a file ([`pack`]). The `release` command decides
//! what to release and when; these decide the bytes.

pub mod gzip;
pub mod pack;
pub mod parallel;
pub mod tree;
pub mod ustar;

/// The deflate level of the asset: 6, gzip's default, a good size/speed balance. It is part of
/// what decides the asset's bytes: changing it changes every release's sha256 (and the pinned
/// hash in tests/cli/release/mod.rs). `tar ... | gzip -n -6` is the equivalent shell pipeline.
pub const COMPRESSION_LEVEL: u32 = 6;
