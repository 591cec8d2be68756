//! One module per subcommand. A command takes its options and returns a report (or an error
//! that stops the run); it never prints.

pub mod adapter;
pub mod adopt;
pub mod diff;
pub mod eval;
pub mod fetch;
pub mod mutants;
pub mod proposal;
pub mod release;
pub mod results;
pub mod run;
pub mod schema;
pub mod suites;
pub mod sync;
pub mod validate;

use bqsuite_core::diag::Code;

/// Every finding code bqsuite reports, from each module's code enum (the reference page of
/// findings lists exactly these).
pub fn finding_codes() -> Vec<Code> {
    use bqsuite_suite::{archive::verify, classify, drift, layout, load};
    let lists: [Vec<Code>; 16] = [
        validate::Code::ALL.iter().map(|c| c.code()).collect(),
        load::Code::ALL.iter().map(|c| c.code()).collect(),
        layout::Code::ALL.iter().map(|c| c.code()).collect(),
        proposal::Code::ALL.iter().map(|c| c.code()).collect(),
        adopt::Code::ALL.iter().map(|c| c.code()).collect(),
        eval::Code::ALL.iter().map(|c| c.code()).collect(),
        run::Code::ALL.iter().map(|c| c.code()).collect(),
        mutants::Code::ALL.iter().map(|c| c.code()).collect(),
        release::Code::ALL.iter().map(|c| c.code()).collect(),
        fetch::Code::ALL.iter().map(|c| c.code()).collect(),
        drift::Code::ALL.iter().map(|c| c.code()).collect(),
        verify::Code::ALL.iter().map(|c| c.code()).collect(),
        sync::Code::ALL.iter().map(|c| c.code()).collect(),
        results::Code::ALL.iter().map(|c| c.code()).collect(),
        classify::Code::ALL.iter().map(|c| c.code()).collect(),
        diff::Code::ALL.iter().map(|c| c.code()).collect(),
    ];
    lists.into_iter().flatten().collect()
}
