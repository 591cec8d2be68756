//! `bqsuite fetch`: downloading and verifying a release, `--check` of a vendored copy against it,
//! and `--update`.

mod archives;
mod check_copy;
mod check_report;
mod corpus;
mod download;
mod old_copies;
mod setup;
mod staging;
mod suites;
mod update;
mod update_limits;
