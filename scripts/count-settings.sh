#!/usr/bin/env bash
# The four counts of issue 32's closing note, over src/ (production code: files named tests.rs
# and everything after a `#[cfg(test)]` line are left out). Re-run after a merge:
#
#   scripts/count-settings.sh            # four lines, "label: N"
#   VERBOSE=1 scripts/count-settings.sh  # and each hit, file:line
#
# 1. functions taking `&Config` outside src/settings/, src/config/ and src/commands/ (a
#    signature, `fn` to its `{` or `;`, naming `&Config`, `&mut Config` or `config::Config`);
# 2. error types without `hint()`: a type deriving `thiserror::Error` (`#[derive(.. Error ..)]`)
#    with no `impl HasHint for` it anywhere in src/;
# 3. `session: &str`, `session: &String` or `session: String` parameters and fields in
#    src/orchestrator/;
# 4. hand-written wait loops: a `tokio::time::sleep(` or `std::thread::sleep(` inside a
#    `loop`/`while`/`for` (by indentation), outside src/poll.rs and src/failpoint.rs, with no
#    comment saying why it is not `poll_until` (the word "poll_until" in the 25 lines above it).
set -euo pipefail
cd "$(dirname "$0")/.."
exec perl - <<'PERL'
use strict; use warnings;
my $verbose = $ENV{VERBOSE};
my @files = split /\n/, `find src -name "*.rs" ! -name tests.rs | sort`;
my (%text, @cfg, @err, @sess, @wait, %hinted);
for my $f (@files) {
    open my $fh, "<", $f or die "$f: $!";
    my @lines = <$fh>;
    close $fh;
    # Production code only: stop at the first #[cfg(test)] (test modules sit at the end).
    my @prod;
    for (@lines) { last if /^\s*#\[cfg\(test\)\]/; push @prod, $_ }
    $text{$f} = \@prod;
    for (@prod) { $hinted{$1} = 1 if /impl\s+(?:[\w:]+::)?HasHint\s+for\s+(?:[\w:]+::)?(\w+)/ }
    # And the types listed in src/error.rs's `no_hint!(..)`, `own_hint!(..)` or `advised!(..)` invocations.
    my $all = join "", @prod;
    while ($all =~ /\b(?:no_hint|own_hint|advised)!\((.*?)\);/sg) {
        my $list = $1;
        $hinted{$1} = 1 while $list =~ /(\w+)\s*(?:,|=>)/g;
    }
}
for my $f (@files) {
    my @l = @{ $text{$f} };
    my $skip_cfg = $f =~ m{^src/(settings|config|commands)/};
    for (my $i = 0; $i < @l; $i++) {
        if (!$skip_cfg && $l[$i] =~ /\bfn\s+\w+/) {
            my $sig = "";
            for (my $j = $i; $j < @l && $j < $i + 40; $j++) {
                $sig .= $l[$j];
                last if $l[$j] =~ /[{;]\s*$/;
            }
            push @cfg, "$f:" . ($i + 1) if $sig =~ /&\s*(?:mut\s+)?(?:crate::config::|config::)?Config\b/;
        }
        if ($l[$i] =~ /^\s*#\[derive\([^)]*\bError\b/) {
            for (my $j = $i + 1; $j < @l && $j < $i + 6; $j++) {
                if ($l[$j] =~ /\b(?:enum|struct)\s+(\w+)/) {
                    push @err, "$f:" . ($j + 1) . " $1" unless $hinted{$1};
                    last;
                }
            }
        }
        if ($f =~ m{^src/orchestrator/} && $l[$i] =~ /\bsession:\s*(?:&\s*(?:'\w+\s+)?str\b|&\s*String\b|String\b)/) {
            push @sess, "$f:" . ($i + 1);
        }
        if ($f !~ m{^src/(poll|failpoint)\.rs$} && $l[$i] =~ /\b(?:tokio::time|std::thread|thread|time)::sleep\(/) {
            my $from = $i > 25 ? $i - 25 : 0;
            my $above = join "", @l[$from .. $i];
            # A loop: a `loop`/`while`/`for` opened above, less indented, within the same fn.
            my ($ind) = $l[$i] =~ /^(\s*)/;
            my $in_loop = 0;
            for (my $j = $i - 1; $j >= 0; $j--) {
                my ($jind) = $l[$j] =~ /^(\s*)/;
                next if length $jind >= length $ind || $l[$j] =~ /^\s*(?:\/\/|$)/;
                last if $l[$j] =~ /\bfn\s+\w+/;
                if ($l[$j] =~ /^\s*(?:'\w+:\s*)?(?:loop\b|while\b|for\b)/) { $in_loop = 1; last }
            }
            push @wait, "$f:" . ($i + 1) if $in_loop && $above !~ /poll_until/;
        }
    }
}
my @report = (
    ["functions taking &Config outside settings/config/commands", \@cfg],
    ["error types without hint()", \@err],
    ["session: &str|String parameters in orchestrator/", \@sess],
    ["hand-written wait loops without a why-not-poll_until comment", \@wait],
);
for (@report) {
    my ($label, $hits) = @$_;
    printf "%s: %d\n", $label, scalar @$hits;
    if ($verbose) { print "  $_\n" for @$hits }
}
PERL
