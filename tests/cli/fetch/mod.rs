//! `bqsuite fetch`: downloading and verifying a release, `--check` of a vendored copy against it,
//! and `--update`.

mod download;
mod old_copies;
mod staging;
mod update;
mod update_limits;
