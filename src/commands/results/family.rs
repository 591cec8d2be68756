//! The SDK family a results file's `sdk` name belongs to, for matching the manifest's
//! `exceptions` (`{"family": "php", "binding": "asb", ...}`).
//!
//! The rule, applied to the lower-cased name:
//!
//! 1. a name in the npm scope `@babelqueue/` is `node`;
//! 2. otherwise the name is split into words at every character that is not an ASCII letter or
//!    digit, and the first word (left to right) that names a family decides it:
//!    `php`, `laravel` → php; `python`, `py` → python; `go`, `golang` → go;
//!    `node`, `nodejs`, `js`, `ts`, `typescript` → node; `java`, `jvm` → java;
//!    `dotnet`, `net`, `csharp` → dotnet;
//! 3. anything else has no family, and no exception applies to it.
//!
//! So `php-sdk` and `babelqueue-php-amqp` are php, `babelqueue-python` is python,
//! `babelqueue-go/kafka` is go, `@babelqueue/sqs` and `babelqueue-node` are node,
//! `babelqueue-java-sqs` is java and `babelqueue-dotnet-pulsar` is dotnet.

/// The families the rule knows, in the order of the table above.
pub const FAMILIES: [&str; 6] = ["php", "python", "go", "node", "java", "dotnet"];

const WORDS: [(&str, &str); 16] = [
    ("php", "php"),
    ("laravel", "php"),
    ("python", "python"),
    ("py", "python"),
    ("go", "go"),
    ("golang", "go"),
    ("node", "node"),
    ("nodejs", "node"),
    ("js", "node"),
    ("ts", "node"),
    ("typescript", "node"),
    ("java", "java"),
    ("jvm", "java"),
    ("dotnet", "dotnet"),
    ("net", "dotnet"),
    ("csharp", "dotnet"),
];

/// The family of the SDK named `sdk`, or `None` when the rule does not recognise it.
pub fn family_of(sdk: &str) -> Option<&'static str> {
    let lower = sdk.trim().to_ascii_lowercase();
    if lower.starts_with("@babelqueue/") {
        return Some("node");
    }
    lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find_map(|word| WORDS.iter().find(|(w, _)| *w == word).map(|(_, f)| *f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_the_spec() {
        for (sdk, family) in [
            ("php-sdk", Some("php")),
            ("babelqueue-php", Some("php")),
            ("babelqueue-php-amqp", Some("php")),
            ("babelqueue-laravel", Some("php")),
            ("babelqueue-python", Some("python")),
            ("babelqueue-go", Some("go")),
            ("babelqueue-go/azureservicebus", Some("go")),
            ("@babelqueue/azure-service-bus", Some("node")),
            ("@BabelQueue/kafka", Some("node")),
            ("babelqueue-node", Some("node")),
            ("babelqueue-java", Some("java")),
            ("babelqueue-java-pulsar", Some("java")),
            ("babelqueue-dotnet", Some("dotnet")),
            ("babelqueue-dotnet-azureservicebus", Some("dotnet")),
            ("Babelqueue.NET", Some("dotnet")),
            ("bqsuite-reference", None),
            ("", None),
            ("gopher", None),
            ("phpunit", None),
        ] {
            assert_eq!(family_of(sdk), family, "{sdk}");
        }
        for (_, f) in WORDS {
            assert!(FAMILIES.contains(&f));
        }
    }
}
