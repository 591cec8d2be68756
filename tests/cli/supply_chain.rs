//! The workflows and the action (issue 22, item 3): every action they use from elsewhere is
//! pinned to a full commit SHA with its version in a comment (what Dependabot updates), every
//! checkout leaves no credentials behind, signing is allowed in one job only, and Dependabot
//! covers both the actions and the crates.

use std::fs;

use crate::kit::root;

/// action.yml and every .github/workflows/*.yml, with their text.
fn files() -> Vec<(String, String)> {
    let mut names = vec!["action.yml".to_string()];
    let mut workflows: Vec<String> = fs::read_dir(root().join(".github/workflows"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yml") || n.ends_with(".yaml"))
        .map(|n| format!(".github/workflows/{n}"))
        .collect();
    workflows.sort();
    assert!(workflows.len() >= 2, "{workflows:?}");
    names.extend(workflows);
    names
        .into_iter()
        .map(|n| {
            let text = fs::read_to_string(root().join(&n)).unwrap();
            (n, text)
        })
        .collect()
}

/// The value of `uses:` on a line (`uses: X` or `- uses: X`), with what follows it.
fn uses(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start().trim_start_matches("- ").trim_start();
    let value = rest.strip_prefix("uses:")?.trim_start();
    let end = value.find(char::is_whitespace).unwrap_or(value.len());
    let (reference, comment) = value.split_at(end);
    Some((
        reference.trim_matches(|c| c == '"' || c == '\''),
        comment.trim(),
    ))
}

/// `owner/repo[/path]@<40 lowercase hex>`, and a comment `# vX[.Y[.Z]]`.
fn pin_problem(reference: &str, comment: &str) -> Option<String> {
    let Some((action, sha)) = reference.split_once('@') else {
        return Some("no @ref".into());
    };
    if action.split('/').count() < 2 {
        return Some(format!("`{action}` is not owner/repo"));
    }
    if sha.len() != 40
        || !sha
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Some(format!("`{sha}` is not a full commit SHA"));
    }
    let version = comment.strip_prefix('#').map(str::trim).unwrap_or("");
    let numbers = version.strip_prefix('v').unwrap_or("");
    let well_formed = !numbers.is_empty()
        && numbers
            .split('.')
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if !well_formed {
        return Some(format!("no `# vX.Y.Z` version comment (found `{comment}`)"));
    }
    None
}

#[test]
fn every_action_from_elsewhere_is_pinned_to_a_commit_with_its_version() {
    let mut problems = Vec::new();
    let mut pinned = 0;
    for (name, text) in files() {
        for (i, line) in text.lines().enumerate() {
            let Some((reference, comment)) = uses(line) else {
                continue;
            };
            // This repository's own action, at the commit under test.
            if reference.starts_with("./") {
                continue;
            }
            match pin_problem(reference, comment) {
                Some(why) => problems.push(format!("{name}:{}: {reference}: {why}", i + 1)),
                None => pinned += 1,
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Read at all: checkout, cache, artifacts, attestation.
    assert!(pinned >= 10, "only {pinned} pinned `uses:` found");
}

#[test]
fn the_pin_check_catches_what_it_is_for() {
    let sha = "de0fac2e4500dabe0009e67214ff5f5447ce83dd";
    let checkout = format!("actions/checkout@{sha}");
    assert_eq!(pin_problem(&checkout, "# v6.0.2"), None);
    assert!(pin_problem("actions/checkout@v6", "").is_some());
    assert!(pin_problem("actions/checkout@v6.0.2", "# v6.0.2").is_some());
    assert!(pin_problem(&checkout, "").is_some());
    assert!(pin_problem(&checkout, "# main").is_some());
    assert!(pin_problem(&checkout[..checkout.len() - 1], "# v6").is_some());
    assert!(pin_problem(&checkout.to_uppercase(), "# v6").is_some());
    assert_eq!(
        uses("      - uses: actions/checkout@abc # v1"),
        Some(("actions/checkout@abc", "# v1"))
    );
}

/// The lines of each step (`- ` at one indent, up to the next at that indent or less).
fn steps(text: &str) -> Vec<Vec<&str>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if !trimmed.starts_with("- ") {
            continue;
        }
        let indent = line.len() - trimmed.len();
        let mut step = vec![*line];
        for next in &lines[i + 1..] {
            let t = next.trim_start();
            if !t.is_empty() && next.len() - t.len() <= indent {
                break;
            }
            step.push(next);
        }
        out.push(step);
    }
    out
}

#[test]
fn every_checkout_leaves_no_credentials_behind() {
    let mut checkouts = 0;
    for (name, text) in files() {
        for step in steps(&text) {
            if !step
                .iter()
                .any(|l| uses(l).is_some_and(|(r, _)| r.starts_with("actions/checkout@")))
            {
                continue;
            }
            checkouts += 1;
            assert!(
                step.iter()
                    .any(|l| l.trim() == "persist-credentials: false"),
                "{name}: a checkout keeps its token in .git/config:\n{}",
                step.join("\n")
            );
        }
    }
    assert!(checkouts >= 5, "only {checkouts} checkouts found");
}

#[test]
fn only_the_attestation_job_can_sign_and_no_workflow_grants_by_default() {
    for (name, text) in files().into_iter().skip(1) {
        assert!(
            text.lines().any(|l| l == "permissions: {}"),
            "{name}: the workflow's default permissions are not empty"
        );
    }
    let release = fs::read_to_string(root().join(".github/workflows/release.yml")).unwrap();
    let signing: Vec<&str> = release
        .lines()
        .filter(|l| l.trim_start().starts_with("id-token: write"))
        .collect();
    assert_eq!(signing.len(), 1, "{signing:?}");
    let attest = release
        .split("\n  attest:\n")
        .nth(1)
        .expect("release.yml has an `attest` job");
    let attest = attest.split("\n  publish:\n").next().unwrap();
    assert!(attest.contains("id-token: write"), "{attest}");
    assert!(attest.contains("attestations: write"), "{attest}");
    assert!(
        attest.contains("uses: actions/attest-build-provenance@"),
        "{attest}"
    );
}

#[test]
fn dependabot_updates_the_actions_and_the_crates_weekly() {
    let text = fs::read_to_string(root().join(".github/dependabot.yml")).unwrap();
    let entries: Vec<&str> = text.split("  - package-ecosystem:").skip(1).collect();
    for ecosystem in ["github-actions", "cargo"] {
        let entry = entries
            .iter()
            .find(|e| e.lines().next().map(str::trim) == Some(ecosystem))
            .unwrap_or_else(|| panic!("dependabot.yml does not update {ecosystem}"));
        // "/" covers .github/workflows and the root action.yml (and Cargo.toml for cargo).
        assert!(
            entry.lines().any(|l| l.trim() == "directory: /"),
            "{ecosystem}: {entry}"
        );
        assert!(
            entry.lines().any(|l| l.trim() == "interval: weekly"),
            "{ecosystem}: {entry}"
        );
        assert!(
            entry.lines().any(|l| l.trim() == "groups:"),
            "{ecosystem}: {entry}"
        );
    }
}
