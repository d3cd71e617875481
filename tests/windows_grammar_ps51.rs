//! The Windows scripts read by tree-sitter-powershell. A binary of its own: it exports the same
//! C symbol as tree-sitter-pwsh (used by the `it` binary's `windows_grammar`), and one binary
//! linking both would read everything with one grammar.

#[path = "windows_grammar/check.rs"]
mod check;

fn grammar() -> tree_sitter::Language {
    tree_sitter_powershell::LANGUAGE.into()
}

#[test]
fn the_linked_grammar_is_tree_sitter_powershell() {
    // tree-sitter-pwsh knows ternaries; this one does not.
    assert_eq!(grammar().id_for_node_kind("ternary_expression", true), 0);
}

#[test]
fn every_windows_script_is_clean() {
    let longest = check::every_windows_script_is_clean(&grammar());
    eprintln!(
        "longest Windows command: {longest} of {} characters",
        check::BUDGET
    );
}

#[test]
fn the_rule_sees_what_the_grammar_accepts() {
    check::the_rule_sees_what_the_grammar_accepts(&grammar(), false);
}
