//! The Windows scripts read by tree-sitter-pwsh (a PowerShell 7 grammar, so the 5.1 rule does
//! the refusing). Its twin, tests/windows_grammar_ps51.rs, uses the other grammar crate in a
//! binary of its own.

#[path = "../windows_grammar/check.rs"]
mod check;

fn pwsh() -> tree_sitter::Language {
    tree_sitter_pwsh::LANGUAGE.into()
}

#[test]
fn the_linked_grammar_is_pwsh() {
    assert_ne!(pwsh().id_for_node_kind("ternary_expression", true), 0);
}

#[test]
fn every_windows_script_is_clean() {
    let longest = check::every_windows_script_is_clean(&pwsh());
    eprintln!(
        "longest Windows command: {longest} of {} characters",
        check::BUDGET
    );
}

#[test]
fn the_rule_sees_what_the_grammar_accepts() {
    check::the_rule_sees_what_the_grammar_accepts(&pwsh(), true);
}
