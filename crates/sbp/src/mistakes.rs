//! Mistaken codecs for mutation testing: each [`Mistake`] is one plausible wrong SBP
//! implementation, a small named change to one rule of the model, standing for a habit real
//! codecs have (a big-endian reader, `String::from_utf8_lossy`, a case-insensitive compare...).
//!
//! A suite is adequate when each mistake changes the outcome of at least one of its cases: a
//! mistake no case notices is a wrong SDK the suite would call conformant. The model is run with
//! a [`Mistakes`] set (`decode::decode_with`, `handshake::decode_handshake_with`,
//! `subject::check_subject_with`); the empty set is the model itself. The mistakes are
//! independent, so a set may hold several, but mutation testing switches on one at a time.

/// One mistaken rule. [`Mistake::info`] says what it breaks and whose habit it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mistake {
    LengthsBigEndian,
    LengthsSigned,
    LengthFitOffByOne,
    MinimumOneShort,
    ReservedFlagsIgnored,
    TimestampFlagIgnored,
    FrameId8Bytes,
    FrameId32Bytes,
    TrailingBytesAccepted,
    UnknownErrorCodeRefused,
    Utf8Lenient,
    BomStripped,
    CloseReasonUtf8,
    SubjectCaseInsensitive,
    SubjectCode1000,
    SnapshotSubjectModel,
    StreamPrefixReserved,
    HandshakeValuesBeforeTypes,
    HandshakeSizeIgnored,
    FrameCapIgnored,
    FrameCapExclusive,
    ErrorMessageUnbounded,
    ErrorDetailsUnbounded,
    TimestampThroughDouble,
}

/// What a mistake is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MistakeInfo {
    pub mistake: Mistake,
    /// Stable kebab-case id (`lengths-big-endian`).
    pub id: &'static str,
    /// The part of the model it touches: `framing`, `text`, `subject`, `handshake` or `limits`.
    pub family: &'static str,
    /// One line: the model's rule the mistake breaks.
    pub rule: &'static str,
    /// One line: the wrong codec it stands for.
    pub habit: &'static str,
}

const fn info(
    mistake: Mistake,
    id: &'static str,
    family: &'static str,
    rule: &'static str,
    habit: &'static str,
) -> MistakeInfo {
    MistakeInfo {
        mistake,
        id,
        family,
        rule,
        habit,
    }
}

/// The catalogue, in [`Mistake::ALL`] order.
const CATALOGUE: [MistakeInfo; 24] = [
    info(
        Mistake::LengthsBigEndian,
        "lengths-big-endian",
        "framing",
        "subjectLen and msgLen are little-endian uint32",
        "a reader that takes network byte order for every integer (DataInputStream.readInt, ntohl)",
    ),
    info(
        Mistake::LengthsSigned,
        "lengths-signed",
        "framing",
        "subjectLen and msgLen are unsigned: 0xffffffff overruns any frame",
        "lengths read as int32 (Java getInt, DataView.getInt32); a negative one passes the bounds check and reads as an empty field",
    ),
    info(
        Mistake::LengthFitOffByOne,
        "length-fit-off-by-one",
        "framing",
        "a subject or Error message may fill the rest of the frame exactly",
        "a bounds check written `len >= available` where `len > available` belongs",
    ),
    info(
        Mistake::MinimumOneShort,
        "minimum-one-short",
        "framing",
        "Ack, Error and Message payloads have minimum lengths 16, 6 and 4",
        "minimum lengths one byte short, the missing byte read as zero (a C reader past its buffer, or a zero-padded copy)",
    ),
    info(
        Mistake::ReservedFlagsIgnored,
        "reserved-flags-ignored",
        "framing",
        "a set reserved flag bit (mask 0xfe) refuses the frame",
        "a decoder that tests only the bit it knows and never looks at the others",
    ),
    info(
        Mistake::TimestampFlagIgnored,
        "timestamp-flag-ignored",
        "framing",
        "flag bit 0 puts 8 timestamp bytes after the frameId",
        "a codec written before timestamps existed: the payload always starts at byte 18",
    ),
    info(
        Mistake::FrameId8Bytes,
        "frame-id-8-bytes",
        "framing",
        "the frameId is 16 bytes",
        "a frameId taken as a 64-bit integer, 8 bytes on the wire",
    ),
    info(
        Mistake::FrameId32Bytes,
        "frame-id-32-bytes",
        "framing",
        "the frameId is 16 raw bytes",
        "the frameId's 32-character hex form written as 32 bytes",
    ),
    info(
        Mistake::TrailingBytesAccepted,
        "trailing-bytes-accepted",
        "framing",
        "bytes after a Ping or Pong op, or after an Ack's 16 bytes, refuse the frame",
        "a decoder that reads the fields it expects and ignores whatever follows",
    ),
    info(
        Mistake::UnknownErrorCodeRefused,
        "unknown-error-code-refused",
        "framing",
        "an Error frame's code may be any uint16",
        "the code mapped onto a closed enum (1000-1003, 2000) that fails on any other value",
    ),
    info(
        Mistake::Utf8Lenient,
        "utf8-lenient",
        "text",
        "a subject, Error message or handshake payload that is not UTF-8 is refused (1002)",
        "lossy decoding (TextDecoder without fatal, String::from_utf8_lossy): bad bytes become U+FFFD and limits are measured after",
    ),
    info(
        Mistake::BomStripped,
        "bom-stripped",
        "text",
        "a leading BOM is part of the text (U+FEFF), never dropped",
        "a text decoder that drops a leading BOM (TextDecoder's default)",
    ),
    info(
        Mistake::CloseReasonUtf8,
        "close-reason-utf8",
        "text",
        "a Close reason is opaque bytes: any bytes are accepted",
        "every text-looking field decoded strictly, the Close reason included",
    ),
    info(
        Mistake::SubjectCaseInsensitive,
        "subject-case-insensitive",
        "subject",
        "channels and the app/ prefix are matched case-sensitively",
        "subjects lowercased or compared with equalsIgnoreCase before routing",
    ),
    info(
        Mistake::SubjectCode1000,
        "subject-code-1000",
        "subject",
        "a refused subject is 1002 InvalidFrame and non-fatal",
        "the snapshot's code: a subject violation raised as fatal 1000 ProtocolViolation",
    ),
    info(
        Mistake::SnapshotSubjectModel,
        "snapshot-subject-model",
        "subject",
        "only rpc, event and app/... are subjects; stream is 1003; the rest is 1002",
        "the snapshot's prefix model: rpc/, event/, stream/ and app/ prefixes, anything else fatal 1000",
    ),
    info(
        Mistake::StreamPrefixReserved,
        "stream-prefix-reserved",
        "subject",
        "only the exact subject stream is 1003; stream/x is an unknown subject (1002)",
        "a reserved-prefix check (`starts_with(\"stream\")`) instead of an exact match",
    ),
    info(
        Mistake::HandshakeValuesBeforeTypes,
        "handshake-values-before-types",
        "handshake",
        "every field type is checked (1002) before protocol and version values (1001)",
        "protocol and version compared first, as the happy path reads them (a missing one is then a wrong one)",
    ),
    info(
        Mistake::HandshakeSizeIgnored,
        "handshake-size-ignored",
        "limits",
        "a handshake payload over the configured limit (8 KiB by default) is refused (1002)",
        "a handshake parsed whatever its size",
    ),
    info(
        Mistake::FrameCapIgnored,
        "frame-cap-ignored",
        "limits",
        "a frame over the configured cap is refused with fatal 1000",
        "the cap left to the transport, which never enforces it",
    ),
    info(
        Mistake::FrameCapExclusive,
        "frame-cap-exclusive",
        "limits",
        "a frame of exactly the cap is accepted (the cap is inclusive)",
        "a cap check written `len >= cap`",
    ),
    info(
        Mistake::ErrorMessageUnbounded,
        "error-message-unbounded",
        "limits",
        "an Error message over the configured limit (4 KiB by default) is refused (1002)",
        "a length-prefixed string read whatever length the peer declares",
    ),
    info(
        Mistake::ErrorDetailsUnbounded,
        "error-details-unbounded",
        "limits",
        "Error details over the configured limit (16 KiB by default) are refused (1002)",
        "details kept as whatever bytes follow the message, however many",
    ),
    info(
        Mistake::TimestampThroughDouble,
        "timestamp-through-double",
        "framing",
        "a timestamp is an exact int64: every value decodes to itself",
        "the int64 read into a double (JavaScript's Number): exact only within 2^53; 2^63 wraps to int64 min when written back",
    ),
];

impl Mistake {
    /// Every mistake, in catalogue order.
    pub const ALL: [Mistake; 24] = [
        Mistake::LengthsBigEndian,
        Mistake::LengthsSigned,
        Mistake::LengthFitOffByOne,
        Mistake::MinimumOneShort,
        Mistake::ReservedFlagsIgnored,
        Mistake::TimestampFlagIgnored,
        Mistake::FrameId8Bytes,
        Mistake::FrameId32Bytes,
        Mistake::TrailingBytesAccepted,
        Mistake::UnknownErrorCodeRefused,
        Mistake::Utf8Lenient,
        Mistake::BomStripped,
        Mistake::CloseReasonUtf8,
        Mistake::SubjectCaseInsensitive,
        Mistake::SubjectCode1000,
        Mistake::SnapshotSubjectModel,
        Mistake::StreamPrefixReserved,
        Mistake::HandshakeValuesBeforeTypes,
        Mistake::HandshakeSizeIgnored,
        Mistake::FrameCapIgnored,
        Mistake::FrameCapExclusive,
        Mistake::ErrorMessageUnbounded,
        Mistake::ErrorDetailsUnbounded,
        Mistake::TimestampThroughDouble,
    ];

    /// Its catalogue entry.
    pub fn info(self) -> &'static MistakeInfo {
        let at = Mistake::ALL
            .iter()
            .position(|&m| m == self)
            .expect("every mistake is in ALL");
        &CATALOGUE[at]
    }

    /// Its stable id.
    pub fn id(self) -> &'static str {
        self.info().id
    }

    /// The mistake with id `id`.
    pub fn from_id(id: &str) -> Option<Mistake> {
        CATALOGUE.iter().find(|i| i.id == id).map(|i| i.mistake)
    }

    /// Its bit in a [`Mistakes`] set: the variants are declared in catalogue order, so the
    /// discriminant is the position in [`Mistake::ALL`] (a test checks it).
    const fn bit(self) -> u32 {
        1 << self as u32
    }
}

/// A set of mistakes to run the model with. [`Mistakes::NONE`] is the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Mistakes(u32);

impl Mistakes {
    /// No mistake: the model itself.
    pub const NONE: Mistakes = Mistakes(0);

    /// The reference code of the protocol's snapshot, as far as the suite's cases can tell: its
    /// subject model (four prefixes, fatal 1000), lenient UTF-8 with the BOM dropped, no frame
    /// cap, no handshake, Error message or details limit, and timestamps held in a double. Run
    /// with this set, the model fails exactly the suite's cases whose expectation differs from
    /// the reference (the manifest's `decisions`).
    pub const REFERENCE: Mistakes = Mistakes(
        Mistake::SnapshotSubjectModel.bit()
            | Mistake::Utf8Lenient.bit()
            | Mistake::BomStripped.bit()
            | Mistake::FrameCapIgnored.bit()
            | Mistake::HandshakeSizeIgnored.bit()
            | Mistake::ErrorMessageUnbounded.bit()
            | Mistake::ErrorDetailsUnbounded.bit()
            | Mistake::TimestampThroughDouble.bit(),
    );

    /// The set holding only `m`.
    pub fn only(m: Mistake) -> Mistakes {
        Mistakes(m.bit())
    }

    /// This set with `m` added.
    pub fn with(self, m: Mistake) -> Mistakes {
        Mistakes(self.0 | m.bit())
    }

    /// Whether `m` is in the set.
    pub fn has(self, m: Mistake) -> bool {
        self.0 & m.bit() != 0
    }

    /// The mistakes in the set, in catalogue order.
    pub fn iter(self) -> impl Iterator<Item = Mistake> {
        Mistake::ALL.into_iter().filter(move |&m| self.has(m))
    }
}

impl From<Mistake> for Mistakes {
    fn from(m: Mistake) -> Mistakes {
        Mistakes::only(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn catalogue_is_in_all_order_with_unique_kebab_case_ids_and_one_line_words() {
        let ids: BTreeSet<&str> = CATALOGUE.iter().map(|i| i.id).collect();
        assert_eq!(ids.len(), CATALOGUE.len(), "duplicate id");
        for (m, i) in Mistake::ALL.iter().zip(CATALOGUE.iter()) {
            assert_eq!(*m, i.mistake, "{} is out of order", i.id);
            assert_eq!(Mistake::from_id(i.id), Some(*m));
            assert!(
                i.id.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                i.id
            );
            for words in [i.rule, i.habit] {
                assert!(!words.is_empty() && !words.contains('\n'), "{}", i.id);
            }
            let families = ["framing", "text", "subject", "handshake", "limits"];
            assert!(families.contains(&i.family), "{}", i.id);
        }
        assert_eq!(Mistake::from_id("no-such-mistake"), None);
        for (at, m) in Mistake::ALL.iter().enumerate() {
            assert_eq!(
                m.bit(),
                1 << at,
                "{} is declared out of catalogue order",
                m.id()
            );
        }
    }

    #[test]
    fn a_set_holds_exactly_what_was_added() {
        let set = Mistakes::only(Mistake::BomStripped).with(Mistake::FrameCapIgnored);
        let held: Vec<Mistake> = set.iter().collect();
        assert_eq!(held, [Mistake::BomStripped, Mistake::FrameCapIgnored]);
        assert!(Mistakes::NONE.iter().next().is_none());
        for m in Mistake::ALL {
            assert!(Mistakes::from(m).has(m));
            assert_eq!(Mistakes::from(m).iter().count(), 1);
        }
    }
}
