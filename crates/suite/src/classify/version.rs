//! The SemVer rule of the suite: the smallest bump a change needs, and whether NEW's
//! CONFORMANCE_VERSION makes it.
//!
//! - **major**: something was removed or changed; **minor**: only additions; **patch**:
//!   descriptions and cosmetic (formatting) edits only; **none**: the vendored set is the same.
//! - Versions are compared on `major.minor.patch`; build metadata (`+...`) is ignored. A bump
//!   is made when NEW's core is greater than OLD's and the field that grew is at least the needed
//!   one (1.5.0 → 1.6.0 or 1.6.3 makes a minor bump; 1.5.0 → 1.5.1 makes only a patch bump).
//!   Skipping versions is allowed; lower fields need not be reset.
//! - 0.y.z versions follow Cargo's convention: a bump of `y` is a major bump, a bump of `z` a
//!   minor one (which also covers a patch).
//! - A pre-release NEW (`1.6.0-pre`, "not yet tagged") is judged by its core: it is on its way to
//!   1.6.0. A pre-release OLD promises nothing, so a NEW with the same core (`1.6.0-pre` →
//!   `1.6.0`, or `-pre.1` → `-pre.2`) may change anything; a NEW with a greater core is judged
//!   against OLD's core.
//! - No change at all: any NEW that does not go backwards (the same version included) is fine.
//! - A NEW that goes backwards (a lower core, or `1.5.0` → `1.5.0-pre`) never satisfies a bump.

use std::fmt;

use semver::Version;

/// The size of a SemVer bump, smallest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bump {
    None,
    Patch,
    Minor,
    Major,
}

impl Bump {
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }

    /// Why a change needs this bump.
    pub fn reason(self) -> &'static str {
        match self {
            Bump::None => "no change",
            Bump::Patch => "descriptions and cosmetic edits only",
            Bump::Minor => "only additions",
            Bump::Major => "something was removed or changed",
        }
    }
}

impl fmt::Display for Bump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What going from OLD to NEW amounts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// NEW is lower than OLD.
    Backwards,
    /// The same version (build metadata aside).
    Same,
    /// OLD is a pre-release and NEW has the same core: anything may change.
    FromPreRelease,
    /// A bump of this size.
    Bumped(Bump),
}

/// The verdict on NEW's version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub step: Step,
    pub sufficient: bool,
    /// The smallest version that would do, when the bump is insufficient.
    pub suggestion: Option<String>,
}

fn core(v: &Version) -> (u64, u64, u64) {
    (v.major, v.minor, v.patch)
}

/// What OLD → NEW amounts to.
pub fn step(old: &Version, new: &Version) -> Step {
    let (o, n) = (core(old), core(new));
    if n < o {
        return Step::Backwards;
    }
    if n == o {
        return if !old.pre.is_empty() {
            Step::FromPreRelease
        } else if new.pre.is_empty() {
            Step::Same
        } else {
            Step::Backwards
        };
    }
    let bump = if old.major == 0 {
        if new.major > 0 || new.minor > old.minor {
            Bump::Major
        } else {
            Bump::Minor
        }
    } else if new.major > old.major {
        Bump::Major
    } else if new.minor > old.minor {
        Bump::Minor
    } else {
        Bump::Patch
    };
    Step::Bumped(bump)
}

/// The smallest version after `old` that makes `needed`.
pub fn next_version(old: &Version, needed: Bump) -> String {
    let (major, minor, patch) = core(old);
    if !old.pre.is_empty() {
        return format!("{major}.{minor}.{patch}");
    }
    match (needed, major) {
        (Bump::None, _) => format!("{major}.{minor}.{patch}"),
        (Bump::Major, 0) => format!("0.{}.0", minor.saturating_add(1)),
        (Bump::Major, _) => format!("{}.0.0", major.saturating_add(1)),
        (Bump::Minor | Bump::Patch, 0) => format!("0.{minor}.{}", patch.saturating_add(1)),
        (Bump::Minor, _) => format!("{major}.{}.0", minor.saturating_add(1)),
        (Bump::Patch, _) => format!("{major}.{minor}.{}", patch.saturating_add(1)),
    }
}

/// Whether going from `old` to `new` makes the `needed` bump.
pub fn judge(old: &Version, new: &Version, needed: Bump) -> Verdict {
    let step = step(old, new);
    let sufficient = match step {
        Step::Backwards => false,
        Step::Same => needed == Bump::None,
        Step::FromPreRelease => true,
        Step::Bumped(made) => made >= needed,
    };
    Verdict {
        step,
        sufficient,
        suggestion: (!sufficient).then(|| next_version(old, needed)),
    }
}

/// How a step reads in a sentence: "1.5.0 → 1.6.0 is a minor bump".
pub fn describe(old: &Version, new: &Version, step: Step) -> String {
    match step {
        Step::Backwards => format!("{new} is lower than {old}"),
        Step::Same => format!("{new} is the same version as {old}"),
        Step::FromPreRelease => format!(
            "{old} is a pre-release and {new} has the same major.minor.patch (a pre-release \
             promises nothing)"
        ),
        Step::Bumped(b) => {
            let pre = if new.pre.is_empty() {
                String::new()
            } else {
                format!(" ({new} is a pre-release, judged as {})", {
                    let (a, b, c) = core(new);
                    format!("{a}.{b}.{c}")
                })
            };
            format!("{old} → {new} is a {b} bump{pre}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    fn ok(old: &str, new: &str, needed: Bump) -> bool {
        judge(&v(old), &v(new), needed).sufficient
    }

    #[test]
    fn bumps() {
        assert!(ok("1.5.0", "2.0.0", Bump::Major));
        assert!(!ok("1.5.0", "1.6.0", Bump::Major));
        assert!(ok("1.5.0", "1.6.0", Bump::Minor));
        assert!(ok("1.5.0", "1.6.3", Bump::Minor));
        assert!(ok("1.5.0", "2.0.0", Bump::Minor));
        assert!(!ok("1.5.0", "1.5.1", Bump::Minor));
        assert!(ok("1.5.0", "1.5.1", Bump::Patch));
        assert!(!ok("1.5.0", "1.5.0", Bump::Patch));
        assert!(ok("1.5.0", "1.5.0", Bump::None));
        assert!(ok("1.5.0", "1.5.0+build.7", Bump::None));
        assert!(!ok("1.5.0", "1.4.9", Bump::None));
    }

    #[test]
    fn pre_releases() {
        assert!(ok("1.5.0", "1.6.0-pre", Bump::Minor));
        assert!(!ok("1.5.0", "1.5.0-pre", Bump::None));
        assert!(ok("1.6.0-pre", "1.6.0", Bump::Major));
        assert!(ok("1.6.0-pre.1", "1.6.0-pre.2", Bump::Major));
        assert!(ok("1.6.0-pre", "1.7.0", Bump::Minor));
        assert!(!ok("1.6.0-pre", "1.6.1", Bump::Minor));
        assert!(!ok("1.6.0-pre", "1.5.9", Bump::None));
    }

    #[test]
    fn zero_major_follows_cargo() {
        assert!(ok("0.3.1", "0.4.0", Bump::Major));
        assert!(!ok("0.3.1", "0.3.2", Bump::Major));
        assert!(ok("0.3.1", "0.3.2", Bump::Minor));
        assert_eq!(next_version(&v("0.3.1"), Bump::Major), "0.4.0");
        assert_eq!(next_version(&v("0.3.1"), Bump::Minor), "0.3.2");
    }

    #[test]
    fn suggestions() {
        assert_eq!(next_version(&v("1.5.0"), Bump::Major), "2.0.0");
        assert_eq!(next_version(&v("1.5.3"), Bump::Minor), "1.6.0");
        assert_eq!(next_version(&v("1.5.3"), Bump::Patch), "1.5.4");
        assert_eq!(next_version(&v("1.6.0-pre"), Bump::Minor), "1.6.0");
        assert_eq!(
            judge(&v("1.5.0"), &v("1.5.1"), Bump::Minor).suggestion,
            Some("1.6.0".into())
        );
    }
}
