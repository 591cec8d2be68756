//! A page's SYNOPSIS line, written out in full: every option with the value it takes
//! (`[--format <FORMAT>]`), then the positionals and the subcommand. clap_mangen's own line leaves
//! the values out, so a reader cannot tell a flag from an option that takes an argument.

/// The synopsis of a built command: its full name, then its options, positionals and subcommand.
pub fn line(cmd: &clap::Command) -> String {
    let mut parts = vec![cmd.get_bin_name().unwrap_or(cmd.get_name()).to_string()];
    let shown: Vec<&clap::Arg> = cmd.get_arguments().filter(|a| !a.is_hide_set()).collect();
    for arg in shown.iter().filter(|a| !a.is_positional()) {
        let flag = match (arg.get_long(), arg.get_short()) {
            (Some(long), _) => format!("--{long}"),
            (None, Some(short)) => format!("-{short}"),
            (None, None) => continue,
        };
        let text = if arg.get_action().takes_values() {
            format!("{flag} <{}>", value_name(arg))
        } else {
            flag
        };
        parts.push(optional(text, arg.is_required_set()));
    }
    for arg in shown.iter().filter(|a| a.is_positional()) {
        let many = if arg.get_num_args().is_some_and(|n| n.max_values() > 1) {
            "..."
        } else {
            ""
        };
        let name = value_name(arg);
        parts.push(if arg.is_required_set() {
            format!("<{name}>{many}")
        } else {
            format!("[{name}]{many}")
        });
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        parts.push(optional(
            "<COMMAND>".to_string(),
            cmd.is_subcommand_required_set(),
        ));
    }
    parts.join(" ")
}

fn value_name(arg: &clap::Arg) -> String {
    arg.get_value_names()
        .map(|names| names.join(" "))
        .unwrap_or_else(|| arg.get_id().as_str().to_uppercase())
}

fn optional(text: String, required: bool) -> String {
    if required { text } else { format!("[{text}]") }
}
