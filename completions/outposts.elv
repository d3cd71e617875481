
use builtin;
use str;

set edit:completion:arg-completer[outposts] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'outposts'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'outposts'= {
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --json 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand -y 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand --yes 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand queue 'Read the outpost''s session queue'
            cand emulator 'Serve the Devin, Daytona and CoreWeave APIs on loopback, and drive its sessions'
            cand help-env 'Print every environment variable `outposts` reads, with its default and meaning'
            cand completions 'Print a shell completion script'
            cand generate 'Write completions/ and man/ from the CLI definition (for maintainers)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;queue'= {
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --json 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand -y 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand --yes 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'outposts;emulator'= {
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --json 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand -y 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand --yes 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand start 'Serve the emulated APIs on loopback until SIGINT/SIGTERM'
            cand env 'Print `export` lines that point every client at a running emulator'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;emulator;start'= {
            cand --port 'Port to listen on (0 picks a free one) [default: OUTPOSTS_EMULATOR_PORT or 8790]'
            cand --data-dir 'Keep sandboxes and the request log here (default: a temporary directory removed at exit)'
            cand --state 'Load the Devin queue from this file at start and save it at exit'
            cand --faults 'Fault script: inline JSON or a JSON file (see `POST /_emulator/faults`)'
            cand --seed 'Seed for every random choice the emulator makes'
            cand --claim-ttl 'Claim lifetime'
            cand --max-stream 'Longest a watch stream stays open'
            cand --keepalive 'Interval of keepalive comments on idle watch streams'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --json 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand -y 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand --yes 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'outposts;emulator;env'= {
            cand --port 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --json 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand -y 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand --yes 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'outposts;emulator;help'= {
            cand start 'Serve the emulated APIs on loopback until SIGINT/SIGTERM'
            cand env 'Print `export` lines that point every client at a running emulator'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;emulator;help;start'= {
        }
        &'outposts;emulator;help;env'= {
        }
        &'outposts;emulator;help;help'= {
        }
        &'outposts;help-env'= {
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --json 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand -y 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand --yes 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'outposts;completions'= {
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --json 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand -y 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand --yes 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'outposts;generate'= {
            cand --dir 'Repository root to write `completions/` and `man/` into'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --check 'Only compare; exit 1 listing the files that differ'
            cand --json 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
            cand -y 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand --yes 'Answer yes to confirmations (required for destructive commands without a terminal)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'outposts;help'= {
            cand queue 'Read the outpost''s session queue'
            cand emulator 'Serve the Devin, Daytona and CoreWeave APIs on loopback, and drive its sessions'
            cand help-env 'Print every environment variable `outposts` reads, with its default and meaning'
            cand completions 'Print a shell completion script'
            cand generate 'Write completions/ and man/ from the CLI definition (for maintainers)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;help;queue'= {
        }
        &'outposts;help;emulator'= {
            cand start 'Serve the emulated APIs on loopback until SIGINT/SIGTERM'
            cand env 'Print `export` lines that point every client at a running emulator'
        }
        &'outposts;help;emulator;start'= {
        }
        &'outposts;help;emulator;env'= {
        }
        &'outposts;help;help-env'= {
        }
        &'outposts;help;completions'= {
        }
        &'outposts;help;generate'= {
        }
        &'outposts;help;help'= {
        }
    ]
    $completions[$command]
}
