//! The subject rules (the conformance plan's model, not the snapshot's prefixes).
//!
//! A subject is valid when it is exactly `rpc`, exactly `event`, or starts with `app/` (the
//! remainder may be empty and may hold any character but U+0000). Exactly `stream` is refused
//! with 1003 UnsupportedFeature; everything else with 1002 InvalidFrame. Both are non-fatal.
//! Matching is case-sensitive and byte-exact.
//!
//! Checking order (the first failing check decides the reason; the code is 1002 for all but the
//! last): more than 256 bytes; not UTF-8; empty; holds U+0000; then the channel: `rpc`, `event`
//! or `app/...` pass, `stream` is 1003, anything else is 1002. Length is counted in bytes of the
//! wire form (the UTF-8 encoding), never in characters.

use crate::error::{INVALID_FRAME, PROTOCOL_VIOLATION, ProtocolError, Reason, SubjectDefect};
use crate::mistakes::{Mistake, Mistakes};
use crate::text::{TextDefect, text_field};

/// The longest subject, in bytes.
pub const MAX_SUBJECT_LEN: usize = 256;

/// The exact channels that are valid subjects.
pub const CHANNELS: [&str; 2] = ["rpc", "event"];
/// The prefix of application subjects.
pub const APP_PREFIX: &str = "app/";
/// The reserved channel (1003).
pub const RESERVED_CHANNEL: &str = "stream";

/// Checks `subject` against the subject rules.
pub fn check_subject(subject: &str) -> Result<(), ProtocolError> {
    check_subject_with(subject, Mistakes::NONE)
}

/// [`check_subject`] as a codec with the mistakes `m` checks it.
pub fn check_subject_with(subject: &str, m: Mistakes) -> Result<(), ProtocolError> {
    subject_from_bytes(subject.as_bytes(), m).map(|_| ())
}

/// The subject held in `bytes` (the wire form), or why it is refused.
pub(crate) fn subject_from_bytes(bytes: &[u8], m: Mistakes) -> Result<String, ProtocolError> {
    let subject = text_field(bytes, MAX_SUBJECT_LEN, m).map_err(|d| {
        refuse(
            match d {
                TextDefect::TooLong { len } => SubjectDefect::TooLong { len },
                TextDefect::NotUtf8 { offset } => SubjectDefect::NotUtf8 { offset },
            },
            m,
        )
    })?;
    if subject.is_empty() {
        return Err(refuse(SubjectDefect::Empty, m));
    }
    if let Some(offset) = subject.find('\0') {
        return Err(refuse(SubjectDefect::Nul { offset }, m));
    }
    match channel(&subject, m) {
        None => Ok(subject),
        Some(defect) => Err(refuse(defect, m)),
    }
}

/// What is wrong with the channel of a non-empty subject without U+0000 (`None`: nothing).
fn channel(subject: &str, m: Mistakes) -> Option<SubjectDefect> {
    let fold = m.has(Mistake::SubjectCaseInsensitive);
    let is = |name: &str| match fold {
        true => subject.eq_ignore_ascii_case(name),
        false => subject == name,
    };
    let starts = |prefix: &str| {
        let head = subject.as_bytes().get(..prefix.len());
        match fold {
            true => head.is_some_and(|h| h.eq_ignore_ascii_case(prefix.as_bytes())),
            false => head == Some(prefix.as_bytes()),
        }
    };
    if m.has(Mistake::SnapshotSubjectModel) {
        let prefixes = ["rpc/", "event/", "stream/", APP_PREFIX];
        return (!prefixes.into_iter().any(starts)).then_some(SubjectDefect::Unknown);
    }
    if CHANNELS.into_iter().any(is) || starts(APP_PREFIX) {
        None
    } else if is(RESERVED_CHANNEL) || (m.has(Mistake::StreamPrefixReserved) && starts("stream")) {
        Some(SubjectDefect::Reserved)
    } else {
        Some(SubjectDefect::Unknown)
    }
}

/// The error raised for `defect`: the model's, or the snapshot's fatal 1000 under the mistakes
/// that report subjects that way.
fn refuse(defect: SubjectDefect, m: Mistakes) -> ProtocolError {
    let what = Reason::Subject(defect);
    let old_code = m.has(Mistake::SubjectCode1000) || m.has(Mistake::SnapshotSubjectModel);
    if old_code && what.code() == INVALID_FRAME {
        ProtocolError::misreported(what, PROTOCOL_VIOLATION, true)
    } else {
        ProtocolError::new(what)
    }
}
