//! One constructor per refusal of an archive: each owns its code, severity, message and help. The
//! parameters are the facts the words need (an entry as shown, a limit, a number); the verifier's
//! other files call these and add nothing but the fault around them.

use std::fmt::Display;

use super::codes::Code;
use bqsuite_core::diag::Diagnostic;

fn refuse(code: Code, entry: impl Into<String>, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, entry, message)
}

// The stream: gzip and tar framing.

fn corrupt(message: impl Into<String>) -> Diagnostic {
    refuse(Code::ArchiveCorrupt, "", message)
        .help("the download is damaged or not a release asset; fetch it again")
}

fn truncated(message: impl Into<String>) -> Diagnostic {
    refuse(Code::ArchiveTruncated, "", message).help("the download is incomplete; fetch it again")
}

pub(super) fn archive_empty() -> Diagnostic {
    truncated("the archive is empty")
}

pub(super) fn archive_ends_inside(what: &str) -> Diagnostic {
    truncated(format!("the archive ends inside {what}"))
}

pub(super) fn entry_content_truncated(shown: &str) -> Diagnostic {
    truncated(format!("the archive ends inside the content of `{shown}`"))
}

pub(super) fn tar_stream_ends_inside(what: &str) -> Diagnostic {
    truncated(format!("the tar stream ends inside {what}"))
}

pub(super) fn padding_truncated() -> Diagnostic {
    truncated("the tar stream ends inside an entry's padding")
}

pub(super) fn end_of_archive_missing() -> Diagnostic {
    truncated("the tar stream ends without its end-of-archive blocks")
}

pub(super) fn end_of_archive_half() -> Diagnostic {
    truncated("the tar stream has only one of its two end-of-archive blocks")
}

pub(super) fn deflate_truncated() -> Diagnostic {
    truncated("the gzip stream ends before its deflate data is complete")
}

pub(super) fn gzip_bad_magic() -> Diagnostic {
    corrupt("not a gzip file (bad magic number)")
}

pub(super) fn gzip_unknown_method(method: u8) -> Diagnostic {
    corrupt(format!("unknown gzip compression method {method}"))
}

pub(super) fn gzip_reserved_flags(flags: u8) -> Diagnostic {
    corrupt(format!(
        "the gzip header sets reserved flag bits ({flags:#04x}), which a decoder must refuse"
    ))
}

pub(super) fn gzip_header_string_too_long(what: &str, max: u64) -> Diagnostic {
    corrupt(format!(
        "the gzip header's {what} is longer than {max} bytes"
    ))
}

pub(super) fn gzip_header_crc_mismatch(stored: u32, expected: u32) -> Diagnostic {
    corrupt(format!(
        "the gzip header CRC does not match the header (stored {stored:04x}, computed \
         {expected:04x}); zlib refuses such a stream"
    ))
}

pub(super) fn deflate_corrupt(e: impl Display) -> Diagnostic {
    corrupt(format!("the deflate stream is corrupt ({e})"))
}

pub(super) fn deflate_stalled() -> Diagnostic {
    corrupt("the deflate stream makes no progress")
}

pub(super) fn gzip_crc_mismatch(trailer: u32, data: u32) -> Diagnostic {
    corrupt(format!(
        "the gzip CRC-32 does not match the data (trailer {trailer:08x}, data {data:08x})"
    ))
}

pub(super) fn gzip_length_mismatch() -> Diagnostic {
    corrupt("the gzip trailer's length does not match the data")
}

pub(super) fn decompression_bomb(cap: u64) -> Diagnostic {
    refuse(
        Code::ArchiveTooLarge,
        "",
        format!("the archive decompresses to more than {cap} bytes (a decompression bomb?)"),
    )
    .help("a release asset is far smaller; this is not one")
}

pub(super) fn header_checksum_not_number() -> Diagnostic {
    corrupt("a tar header's checksum field is not a number")
}

pub(super) fn header_checksum_mismatch(stored: u64, sum: u64) -> Diagnostic {
    corrupt(format!(
        "a tar header's checksum does not match (stored {stored}, computed {sum})"
    ))
}

// The end of the archive.

pub(super) fn data_after_end_block() -> Diagnostic {
    refuse(
        Code::ArchiveTrailingGarbage,
        "",
        "data follows the first end-of-archive block",
    )
    .help("a hidden entry after the end marker; some tools would read it")
}

pub(super) fn data_after_end_blocks() -> Diagnostic {
    refuse(
        Code::ArchiveTrailingGarbage,
        "",
        "non-zero data follows the end-of-archive blocks",
    )
    .help("a release asset ends with its end-of-archive blocks")
}

pub(super) fn padding_too_large(max: u64) -> Diagnostic {
    refuse(
        Code::ArchiveTooLarge,
        "",
        format!("more than {max} bytes of padding follow the end of the archive"),
    )
}

fn after_gzip(what: &str) -> Diagnostic {
    refuse(Code::ArchiveTrailingGarbage, "", what)
        .help("a release asset is exactly one gzip member; other tools would read what follows")
}

pub(super) fn second_gzip_member() -> Diagnostic {
    after_gzip("a second gzip member follows the first")
}

pub(super) fn bytes_after_gzip() -> Diagnostic {
    after_gzip("bytes follow the end of the gzip stream")
}

// Tar headers.

fn ambiguous(shown: &str, why: &str) -> Diagnostic {
    refuse(
        Code::ArchiveAmbiguousHeader,
        shown,
        format!("entry `{shown}`: {why}"),
    )
    .help(
        "tar readers could disagree on what this entry holds; rebuild the asset with `bqsuite \
         release` or with GNU tar, bsdtar or Python's tarfile",
    )
}

pub(super) fn header_unknown_magic(shown: &str) -> Diagnostic {
    ambiguous(
        shown,
        "its header is neither POSIX ustar (magic `ustar\\0`, version `00`) nor GNU (`ustar  \
         \\0`): a v7 or unknown header, whose name and type readers interpret differently",
    )
}

pub(super) fn gnu_header_prefix_data(shown: &str) -> Diagnostic {
    ambiguous(
        shown,
        "its GNU header has data (atime, ctime or a sparse map) where a ustar \
         reader takes a name prefix",
    )
}

pub(super) fn header_field_blank(shown: &str, field: &str) -> Diagnostic {
    ambiguous(shown, &format!("its {field} field is blank"))
}

pub(super) fn header_field_not_octal(shown: &str, field: &str) -> Diagnostic {
    ambiguous(
        shown,
        &format!(
            "its {field} field is not plain octal digits (readers parse a leading \
             NUL, base-256 or stray bytes differently)"
        ),
    )
}

pub(super) fn directory_with_content(shown: &str, size: u64) -> Diagnostic {
    ambiguous(
        shown,
        &format!(
            "it is a directory entry with {size} bytes of content (GNU tar skips \
             them, Python's tarfile reads them as the next header)"
        ),
    )
}

// Entry types.

fn not_file_or_dir(code: Code, shown: &str, what: &str) -> Diagnostic {
    refuse(code, shown, format!("entry `{shown}` is {what}"))
        .help("the asset holds only regular files and directories")
}

pub(super) fn hard_link(shown: &str, target: &str) -> Diagnostic {
    not_file_or_dir(
        Code::ArchiveHardlink,
        shown,
        &format!("a hard link (to `{target}`)"),
    )
}

pub(super) fn symbolic_link(shown: &str, target: &str) -> Diagnostic {
    not_file_or_dir(
        Code::ArchiveSymlink,
        shown,
        &format!("a symbolic link (to `{target}`)"),
    )
}

pub(super) fn character_device(shown: &str) -> Diagnostic {
    not_file_or_dir(Code::ArchiveSpecial, shown, "a character device")
}

pub(super) fn block_device(shown: &str) -> Diagnostic {
    not_file_or_dir(Code::ArchiveSpecial, shown, "a block device")
}

pub(super) fn fifo(shown: &str) -> Diagnostic {
    not_file_or_dir(Code::ArchiveSpecial, shown, "a FIFO (named pipe)")
}

pub(super) fn sparse_file(shown: &str) -> Diagnostic {
    not_file_or_dir(Code::ArchiveSparse, shown, "a GNU sparse file")
}

pub(super) fn pax_global_header(shown: &str) -> Diagnostic {
    not_file_or_dir(
        Code::ArchiveExtensionHeader,
        shown,
        "a PAX global header (it would change how readers that honour it read every \
         entry after it)",
    )
}

pub(super) fn gnu_long_name(shown: &str) -> Diagnostic {
    not_file_or_dir(
        Code::ArchiveExtensionHeader,
        shown,
        "a GNU long-name header (readers that honour it read another name than the \
         header's)",
    )
}

pub(super) fn unknown_type(shown: &str, typeflag: u8) -> Diagnostic {
    not_file_or_dir(
        Code::ArchiveUnknownType,
        shown,
        &format!("of unknown type `{}`", [typeflag].escape_ascii()),
    )
}

// Extended headers.

fn pax_header(shown: &str, why: &str) -> Diagnostic {
    refuse(
        Code::ArchiveExtensionHeader,
        shown,
        format!("the PAX extended header `{shown}` {why}"),
    )
    .help("not an archive every tar reader reads alike")
}

pub(super) fn pax_before_end(shown: &str) -> Diagnostic {
    refuse(
        Code::ArchiveExtensionHeader,
        shown,
        format!(
            "the PAX extended header `{shown}` is followed by the end of the archive, \
             not by the entry it describes"
        ),
    )
    .help("not an archive every tar reader reads alike")
}

pub(super) fn pax_gnu_header(shown: &str) -> Diagnostic {
    pax_header(shown, "has a GNU header; a PAX header is POSIX ustar")
}

pub(super) fn pax_after_another(shown: &str) -> Diagnostic {
    pax_header(
        shown,
        "follows another extended header; readers merge the two differently",
    )
}

pub(super) fn pax_too_large(shown: &str, max: u64) -> Diagnostic {
    pax_header(shown, &format!("holds more than {max} bytes of records"))
}

fn pax_differs(shown: &str, what: &str, stated: &str) -> Diagnostic {
    refuse(
        Code::ArchiveExtensionHeader,
        shown,
        format!(
            "the PAX extended header before `{shown}` gives its {what} as {stated}, not the \
             header's own"
        ),
    )
    .help(
        "readers that honour the record and readers that skip it would extract different \
         files",
    )
}

pub(super) fn pax_path_differs(shown: &str, path_shown: &str) -> Diagnostic {
    pax_differs(shown, "path", &format!("`{path_shown}`"))
}

pub(super) fn pax_size_differs(shown: &str, size: u64) -> Diagnostic {
    pax_differs(shown, "size", &size.to_string())
}

fn pax_record(shown: &str, why: &str) -> Diagnostic {
    refuse(
        Code::ArchiveExtensionHeader,
        shown,
        format!("the PAX extended header before `{shown}` {why}"),
    )
    .help(
        "readers that honour the record and readers that skip it would extract different \
         files; rebuild the asset without it",
    )
}

pub(super) fn pax_record_without_length(shown: &str) -> Diagnostic {
    pax_record(shown, "has a record without a length")
}

pub(super) fn pax_record_bad_length(shown: &str) -> Diagnostic {
    pax_record(
        shown,
        "has a record whose length is malformed or runs past its data",
    )
}

pub(super) fn pax_record_without_newline(shown: &str) -> Diagnostic {
    pax_record(shown, "has a record that does not end with a newline")
}

pub(super) fn pax_record_without_equals(shown: &str) -> Diagnostic {
    pax_record(shown, "has a record without `=`")
}

pub(super) fn pax_keyword_not_utf8(shown: &str) -> Diagnostic {
    pax_record(shown, "has a record whose keyword is not UTF-8")
}

pub(super) fn pax_record_nul(shown: &str, key_shown: &str) -> Diagnostic {
    pax_record(
        shown,
        &format!("has a `{key_shown}` record holding a NUL byte"),
    )
}

pub(super) fn pax_path_twice(shown: &str) -> Diagnostic {
    pax_record(shown, "gives `path` twice")
}

pub(super) fn pax_size_not_number(shown: &str) -> Diagnostic {
    pax_record(shown, "has a `size` record that is not a whole number")
}

pub(super) fn pax_size_twice(shown: &str) -> Diagnostic {
    pax_record(shown, "gives `size` twice")
}

pub(super) fn pax_metadata_malformed(shown: &str, key: &str) -> Diagnostic {
    pax_record(
        shown,
        &format!("has a `{key}` record whose value is malformed"),
    )
}

/// `accepted`: the accepted keywords, each in backquotes, joined by `, `.
pub(super) fn pax_record_not_accepted(shown: &str, key_shown: &str, accepted: &str) -> Diagnostic {
    pax_record(
        shown,
        &format!(
            "has a `{key_shown}` record; only {accepted} (and `path` or `size` equal to the \
             header's own) are accepted"
        ),
    )
}

// Limits.

pub(super) fn too_many_entries(shown: &str, max: usize) -> Diagnostic {
    refuse(
        Code::ArchiveTooManyEntries,
        shown,
        format!("the archive has more than {max} entries"),
    )
}

pub(super) fn names_too_large(shown: &str, max: u64) -> Diagnostic {
    refuse(
        Code::ArchiveTooLarge,
        shown,
        format!("the archive's entry names add up to more than {max} bytes"),
    )
}

pub(super) fn entry_too_large(shown: &str, size: u64, max: u64) -> Diagnostic {
    refuse(
        Code::ArchiveEntryTooLarge,
        shown,
        format!("entry `{shown}` is {size} bytes; a release file is at most {max} bytes"),
    )
    .help("a decompression bomb or not a release asset")
}

pub(super) fn too_many_files(shown: &str, max: usize) -> Diagnostic {
    refuse(
        Code::ArchiveTooManyEntries,
        shown,
        format!(
            "the archive holds more than {max} files besides LICENSE (at entry `{shown}`); \
             a suite, and so a release, holds at most that many"
        ),
    )
    .help("not a release `bqsuite release` could have written; nothing was written")
}

pub(super) fn files_too_large(shown: &str, max: u64) -> Diagnostic {
    refuse(
        Code::ArchiveTooLarge,
        shown,
        format!(
            "the archive's files besides LICENSE add up to more than {max} bytes (at entry \
             `{shown}`); a suite, and so a release, holds at most that much"
        ),
    )
    .help("a decompression bomb or not a release asset; nothing was written")
}

// The release's own files.

pub(super) fn version_file_too_large(shown: &str, size: u64, version: &str) -> Diagnostic {
    refuse(
        Code::ArchiveVersionMismatch,
        shown,
        format!("`{shown}` is {size} bytes; it should hold the version {version}"),
    )
}

/// `shown`: the version file's path in the archive (`<root>/CONFORMANCE_VERSION`).
pub(super) fn version_file_missing(shown: &str, version: &str) -> Diagnostic {
    refuse(
        Code::ArchiveVersionMismatch,
        shown,
        format!("the archive has no `{shown}`; a release of {version} has one"),
    )
}

pub(super) fn version_mismatch(shown: &str, found_shown: &str, version: &str) -> Diagnostic {
    refuse(
        Code::ArchiveVersionMismatch,
        shown,
        format!("the archive's CONFORMANCE_VERSION is `{found_shown}`, not {version}"),
    )
    .help("the asset is not the release of the version asked for")
}

/// `manifest`: the manifest's path in the archive (`<root>/manifest.json`).
pub(super) fn manifest_missing(manifest: &str) -> Diagnostic {
    refuse(
        Code::ArchiveLayout,
        manifest,
        format!("the archive has no `{manifest}`"),
    )
    .help("a release of the suite holds its manifest; this asset is not one")
}

// An entry's place in the layout, and entries at one path.

fn misplaced(shown: &str, why: &str) -> Diagnostic {
    refuse(Code::ArchiveLayout, shown, format!("entry `{shown}` {why}")).help(
        "a release holds only CONFORMANCE_VERSION, manifest.json, LICENSE, fixtures/*.json \
         and schema/*.json, with portable names; this archive is not a release of the suite",
    )
}

/// `reason`: why the layout has no place for the path ([`crate::layout::Refusal`]).
pub(super) fn no_place_in_release(shown: &str, reason: &str) -> Diagnostic {
    misplaced(shown, reason)
}

pub(super) fn file_where_directory(shown: &str) -> Diagnostic {
    misplaced(shown, "is a file where a release has a directory")
}

pub(super) fn directory_where_file(shown: &str) -> Diagnostic {
    misplaced(shown, "is a directory where a release has a file")
}

pub(super) fn case_collision(path: &str, other: &str) -> Diagnostic {
    refuse(
        Code::ArchiveCaseCollision,
        path,
        format!("entry `{path}` and entry `{other}` differ only in case"),
    )
    .help("they would overwrite each other on a case-insensitive file system")
}

pub(super) fn inside_a_file(path: &str, ancestor: &str) -> Diagnostic {
    refuse(
        Code::ArchiveDuplicate,
        path,
        format!(
            "entry `{path}` lies inside `{ancestor}`, which is a regular file \
             entry"
        ),
    )
}

pub(super) fn file_over_entries(path: &str) -> Diagnostic {
    refuse(
        Code::ArchiveDuplicate,
        path,
        format!("entry `{path}` is a regular file, but earlier entries lie inside it"),
    )
}

pub(super) fn duplicate(path: &str) -> Diagnostic {
    refuse(
        Code::ArchiveDuplicate,
        path,
        format!("entry `{path}` appears more than once"),
    )
    .help("a later copy would silently replace the earlier one")
}

// An entry's path.

fn bad_path(shown: &str, why: &str) -> Diagnostic {
    refuse(
        Code::ArchiveBadPath,
        shown,
        format!("entry `{shown}` {why}"),
    )
}

pub(super) fn empty_name(shown: &str) -> Diagnostic {
    bad_path(shown, "has an empty name")
}

pub(super) fn absolute_path(shown: &str) -> Diagnostic {
    refuse(
        Code::ArchiveAbsolutePath,
        shown,
        format!("entry `{shown}` has an absolute path"),
    )
    .help("every entry must lie under the archive's root directory")
}

pub(super) fn path_too_long(shown: &str, max: usize) -> Diagnostic {
    bad_path(shown, &format!("has a path longer than {max} bytes"))
}

pub(super) fn slash_but_not_directory(shown: &str) -> Diagnostic {
    bad_path(shown, "ends with `/` but is not a directory entry")
}

pub(super) fn dotdot(shown: &str) -> Diagnostic {
    refuse(
        Code::ArchiveDotdot,
        shown,
        format!("entry `{shown}` has a `..` component"),
    )
    .help("an entry must never reach outside the directory it is unpacked into")
}

pub(super) fn empty_component(shown: &str) -> Diagnostic {
    bad_path(shown, "has an empty path component (`//`)")
}

pub(super) fn dot_component(shown: &str) -> Diagnostic {
    bad_path(shown, "has a `.` component")
}

pub(super) fn separator_or_drive(shown: &str) -> Diagnostic {
    bad_path(
        shown,
        "contains `\\` or `:` (a path separator or drive on some systems)",
    )
}

pub(super) fn control_character(shown: &str) -> Diagnostic {
    bad_path(shown, "contains a control character")
}

pub(super) fn component_too_long(shown: &str) -> Diagnostic {
    bad_path(shown, "has a component longer than 255 bytes")
}

pub(super) fn nested_too_deep(shown: &str, max: usize) -> Diagnostic {
    bad_path(shown, &format!("is nested deeper than {max} levels"))
}

pub(super) fn path_not_utf8(shown: &str) -> Diagnostic {
    bad_path(shown, "is not valid UTF-8")
}

pub(super) fn second_root(shown: &str, first: &str, root: &str) -> Diagnostic {
    refuse(
        Code::ArchiveMultipleRoots,
        shown,
        format!(
            "entry `{shown}` starts a second top-level directory `{first}` besides \
             `{root}/`"
        ),
    )
    .help("a release asset has exactly one root directory")
}

pub(super) fn outside_root(shown: &str, root: &str) -> Diagnostic {
    refuse(
        Code::ArchiveOutsideRoot,
        shown,
        format!("entry `{shown}` lies outside the root directory `{root}/`"),
    )
    .help("a release asset of this version has every entry under that directory")
}

pub(super) fn root_is_a_file(shown: &str, root: &str) -> Diagnostic {
    refuse(
        Code::ArchiveOutsideRoot,
        shown,
        format!("the root `{root}` is a regular file, not a directory"),
    )
}
