
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
            cand demo 'Run the whole job on the built-in emulator, narrated: claim, serve, sleep, wake, terminate'
            cand connect 'Connect an outpost from the browser and store its token (PKCE partner flow)'
            cand auth 'Show or forget the stored outpost token'
            cand outpost 'Create, list, inspect and delete outposts (orchestrator-scope token)'
            cand queue 'Read the outpost''s session queue'
            cand orchestrator 'Serve the outpost: one sandbox per Devin session (long-running), and inspect it'
            cand emulator 'Serve the Devin, Daytona and CoreWeave APIs on loopback, and drive its sessions'
            cand worker 'Fixed workers: sandboxes running `devin worker start --outpost=…` (CoreWeave model)'
            cand snapshot 'Build, name, list and delete the Daytona snapshot sandboxes boot from'
            cand session 'Prove a Devin session runs on your compute (proof file written by Devin, read back)'
            cand doctor 'Check settings, tokens, outpost, snapshot, port, state dir and clock; print the fixes'
            cand cost 'What sandboxes cost: per session, outpost or day, from the orchestrator''s cost ledger'
            cand help-env 'Print every environment variable `outposts` reads, with its default and meaning'
            cand completions 'Print a shell completion script'
            cand generate 'Write completions/ and man/ from the CLI definition (for maintainers)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;demo'= {
            cand --keep 'Keep the emulator''s data and the sandboxes in this directory instead of a temporary one'
            cand --step-timeout 'Longest wait for each step'
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
        &'outposts;connect'= {
            cand --platform 'Platform of the new outpost (editable on the connect page)'
            cand --name 'Name of the new outpost [default: daytona-<platform>] (editable on the connect page)'
            cand --store 'Where to keep the token: .env (mode 0600) or the OS keyring (falls back to .env when no keyring is available)'
            cand --timeout 'Give up waiting for the browser after this long (e.g. 90s, 10m)'
            cand --port 'Local callback port [default: OUTPOSTS_CONNECT_PORT, else 8765]. Devin redirects only to its allowlisted callback (port 8765); 0 picks a free port (emulator only)'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --force 'Replace DEVIN_OUTPOSTS_TOKEN, DEVIN_API_URL and OUTPOST_ID in a .env that already holds an outpost (every other line is kept)'
            cand --no-browser 'Only print the URL; do not start a browser'
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
        }
        &'outposts;auth'= {
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
            cand status 'Which token is in force (environment, .env, keyring) and whether the API accepts it'
            cand set-key 'Store DEVIN_API_KEY (the v3 API key), read from stdin or a hidden prompt, in .env or the OS keyring'
            cand logout 'Forget the stored token and v3 API key: their OS keyring entries and their .env lines (DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;auth;status'= {
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --offline 'Do not call the API to check the token'
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
        &'outposts;auth;set-key'= {
            cand --store 'Where to keep DEVIN_API_KEY: `env` writes only its line to .env (mode 0600); `keyring` keeps it in the OS keyring (falls back to .env when no keyring is available). Nothing else is written'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --offline 'Store the key without asking the API whether it accepts it'
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
        &'outposts;auth;logout'= {
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
        &'outposts;auth;help'= {
            cand status 'Which token is in force (environment, .env, keyring) and whether the API accepts it'
            cand set-key 'Store DEVIN_API_KEY (the v3 API key), read from stdin or a hidden prompt, in .env or the OS keyring'
            cand logout 'Forget the stored token and v3 API key: their OS keyring entries and their .env lines (DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;auth;help;status'= {
        }
        &'outposts;auth;help;set-key'= {
        }
        &'outposts;auth;help;logout'= {
        }
        &'outposts;auth;help;help'= {
        }
        &'outposts;outpost'= {
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
            cand create 'Create an outpost and print its OUTPOST_ID (orchestrator scope)'
            cand list 'List every outpost of the account (all pages)'
            cand get 'Show one outpost with its queue depth and active claims'
            cand delete 'Delete an outpost (orchestrator scope); an outpost already gone is not an error'
            cand default 'Show or change the organisation''s default platform (DEVIN_API_KEY, DEVIN_ORG_ID)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;outpost;create'= {
            cand --platform 'Platform of its machines'
            cand --description 'Free-text description'
            cand --token-env 'Read the token from this environment variable instead of the default one'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --write-env 'Also write OUTPOST_ID to .env (or --env-file), replacing a previous value'
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
        &'outposts;outpost;list'= {
            cand --token-env 'Read the token from this environment variable instead of the default one'
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
        &'outposts;outpost;get'= {
            cand --token-env 'Read the token from this environment variable instead of the default one'
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
        &'outposts;outpost;delete'= {
            cand --token-env 'Read the token from this environment variable instead of the default one'
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
        &'outposts;outpost;default'= {
            cand --org 'Organisation id [default: DEVIN_ORG_ID]'
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
            cand set 'Make a shared outpost (name or id) or a hosted label the organisation''s default'
            cand clear 'Remove the organisation''s default platform'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;outpost;default;set'= {
            cand --org 'Organisation id [default: DEVIN_ORG_ID]'
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
        &'outposts;outpost;default;clear'= {
            cand --org 'Organisation id [default: DEVIN_ORG_ID]'
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
        &'outposts;outpost;default;help'= {
            cand set 'Make a shared outpost (name or id) or a hosted label the organisation''s default'
            cand clear 'Remove the organisation''s default platform'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;outpost;default;help;set'= {
        }
        &'outposts;outpost;default;help;clear'= {
        }
        &'outposts;outpost;default;help;help'= {
        }
        &'outposts;outpost;help'= {
            cand create 'Create an outpost and print its OUTPOST_ID (orchestrator scope)'
            cand list 'List every outpost of the account (all pages)'
            cand get 'Show one outpost with its queue depth and active claims'
            cand delete 'Delete an outpost (orchestrator scope); an outpost already gone is not an error'
            cand default 'Show or change the organisation''s default platform (DEVIN_API_KEY, DEVIN_ORG_ID)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;outpost;help;create'= {
        }
        &'outposts;outpost;help;list'= {
        }
        &'outposts;outpost;help;get'= {
        }
        &'outposts;outpost;help;delete'= {
        }
        &'outposts;outpost;help;default'= {
            cand set 'Make a shared outpost (name or id) or a hosted label the organisation''s default'
            cand clear 'Remove the organisation''s default platform'
        }
        &'outposts;outpost;help;default;set'= {
        }
        &'outposts;outpost;help;default;clear'= {
        }
        &'outposts;outpost;help;help'= {
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
            cand list 'List every queued session of the outpost (all pages)'
            cand watch 'Follow queue changes as they happen (reconnects by itself; Ctrl-C to stop)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;queue;list'= {
            cand --phase 'Only entries in this phase'
            cand --acceptor 'Only entries claimed by this acceptor id'
            cand --outpost 'Outpost (name or id) whose queue to read [default: OUTPOST_ID; every outpost when unset]'
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
        &'outposts;queue;watch'= {
            cand --outpost 'Outpost (name or id) to watch [default: OUTPOST_ID; every outpost when unset]'
            cand --cursor 'Resume after this cursor (from a previous event or `queue list`)'
            cand --limit 'Exit 0 after this many events'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --from-start 'Replay the whole queue first instead of starting from now'
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
        &'outposts;queue;help'= {
            cand list 'List every queued session of the outpost (all pages)'
            cand watch 'Follow queue changes as they happen (reconnects by itself; Ctrl-C to stop)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;queue;help;list'= {
        }
        &'outposts;queue;help;watch'= {
        }
        &'outposts;queue;help;help'= {
        }
        &'outposts;orchestrator'= {
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
            cand run 'Serve the outpost''s queue: one sandbox per session, until SIGTERM'
            cand status 'Show this instance''s identity, cursor age and the sessions it holds'
            cand failures 'Show the failure records: why a session''s sandbox failed, with its last log lines'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;orchestrator;run'= {
            cand --provider 'Where sessions run [default: OUTPOSTS_PROVIDER or daytona]'
            cand --launch 'How the session is served inside the sandbox'
            cand --outpost 'Outpost name or id [default: OUTPOST_ID]'
            cand --max-concurrent-sessions 'Most sessions held at once [default: MAX_CONCURRENT_SESSIONS or 5]'
            cand --snapshot 'Snapshot new sandboxes start from (Daytona) [default: SNAPSHOT_NAME or the content-hashed default]'
            cand --windows-snapshot 'Snapshot Windows sessions'' sandboxes start from (Daytona) [default: the content-hashed Windows snapshot `snapshot build --platform windows` makes]'
            cand --image 'Image new sandboxes start from, instead of a snapshot'
            cand --metrics-addr 'Serve Prometheus `/metrics` and `/healthz` here (off by default)'
            cand --janitor-grace 'How long a new sandbox is safe from the janitor (e.g. 90s, 5m; bare numbers are seconds)'
            cand --ready-timeout 'Longest wait for a sandbox to start (e.g. 90s, 5m; bare numbers are seconds)'
            cand --adopt-from 'Take over the sessions this STATE_DIR holds on another provider: their sandboxes there are stopped first (disks kept), then they are served here. Needed once when the provider (or its endpoint) changes while sessions are held; without it such a start exits 2'
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
        }
        &'outposts;orchestrator;status'= {
            cand --outpost 'Outpost name or id [default: OUTPOST_ID]'
            cand --interval 'Seconds between refreshes of --watch'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --watch 'Keep watching: a live table on a terminal, NDJSON snapshots otherwise (or with --json)'
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
        &'outposts;orchestrator;failures'= {
            cand --outpost 'Outpost name or id [default: OUTPOST_ID]'
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
        &'outposts;orchestrator;help'= {
            cand run 'Serve the outpost''s queue: one sandbox per session, until SIGTERM'
            cand status 'Show this instance''s identity, cursor age and the sessions it holds'
            cand failures 'Show the failure records: why a session''s sandbox failed, with its last log lines'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;orchestrator;help;run'= {
        }
        &'outposts;orchestrator;help;status'= {
        }
        &'outposts;orchestrator;help;failures'= {
        }
        &'outposts;orchestrator;help;help'= {
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
            cand session 'Drive the emulated Devin sessions: enqueue, suspend, resume, terminate, give tasks'
            cand status 'Outposts and sessions of a running emulator'
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
            cand --sweep-delay 'How long a released suspended/terminated session''s row lingers before it is swept'
            cand --remote-form 'What `devin-remote` is for Linux: `binary` (a real executable, the running process is the file) or `script` (a POSIX shell script that behaves the same; its process is the shell)'
            cand --windows-daemon 'Which Windows daemon Windows sandboxes follow: `legacy` (`cmd.exe /C`, an exec''s envs dropped, nothing killed on a timeout) or `newer` (`cmd.exe /S /C "…"`, envs applied, the process tree killed on a timeout)'
            cand --outpost-get-route 'How `GET /opbeta/outposts/{id}` answers: `served`, or absent as in Cognition''s model of the server (`404` unknown path, `405` method not allowed)'
            cand --gateway-url 'The gateway URL claim answers carry (default: the emulator''s own). A URL the fake remote cannot use (e.g. `wss://…`) makes it exit 2 at once, with the reason in its log'
            cand --page-size 'Most rows one queue list page serves, whatever `first` asks (pages overlap by one row)'
            cand --watch-replay 'How far before its cursor a watch replays rows (at-least-once delivery): it sends every row changed at or after the cursor minus this; with 0s only the row at the cursor itself is sent again'
            cand --daytona-create-delay 'How long an emulated Daytona sandbox takes from `creating` to `started` (a real one takes seconds; warm capacity is worth measuring only when it does here too) [default: 200ms]. Also `PUT /_emulator/daytona/settings` `create_ms`'
            cand --daytona-start-delay 'How long an emulated Daytona sandbox takes from `starting` to `started` [default: 150ms]'
            cand --sandboxes 'What a Daytona or CoreWeave sandbox is: `process` (a real local sandbox running the fake remote) or `simulated` (a record only; the remote is simulated inside the emulator, so tens of thousands of sessions fit on one machine)'
            cand --sim-delay 'With `--sandboxes simulated`: how long each exec and each create, start and stop takes'
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
        &'outposts;emulator;session'= {
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
            cand new 'Enqueue new sessions (what Devin does when a user starts one on the outpost)'
            cand list 'Every session the emulator knows'
            cand suspend 'Put a session to sleep: its remote exits; the row leaves the queue once released'
            cand resume 'Wake a suspended session: it comes back as a pending `kind=resume` entry'
            cand terminate 'End a session for good'
            cand task 'Give a session''s remote a task (proof-file text or `sh: <command>`)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;emulator;session;new'= {
            cand --outpost 'Outpost id or name [default: OUTPOST_ID, else the emulator''s first outpost]'
            cand --platform 'linux, windows or macos'
            cand --kind 'new or resume'
            cand --sha 'Pin `remote_binary_sha` (7–64 hex digits) [default: the published build `latest_*` points at, like a real session]; `none` leaves the pin out (clients then fetch latest)'
            cand --status 'Initial session_status: pending, running, suspended or terminated'
            cand --task 'A task for the session''s remote'
            cand --count 'How many sessions (1–1000)'
            cand --id 'Use this session id instead of a generated `devin-…` one'
            cand --network-policy 'The entry''s `spec.network_policy`, as JSON: `{"enabled": bool, "allow": [{"hostname": glob} | {"ipv4": CIDR} | {"ipv6": CIDR}]}` (sent as given, so malformed ones can be tried too) [default: none]'
            cand --rate 'Enqueue one session at a time as a Poisson stream of this rate (`1/s`, `30/m`, `120/h`) for `--for`, printing each id as it is enqueued'
            cand --for 'How long `--rate` keeps enqueuing (e.g. 5m)'
            cand --seed 'Seed of `--rate`''s random gaps (the same seed, the same stream)'
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
        &'outposts;emulator;session;list'= {
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
        &'outposts;emulator;session;suspend'= {
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
        &'outposts;emulator;session;resume'= {
            cand --network-policy 'The woken entry''s `spec.network_policy`, as JSON (`null`: none) [default: as before]'
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
        &'outposts;emulator;session;terminate'= {
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
        &'outposts;emulator;session;task'= {
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
        &'outposts;emulator;session;help'= {
            cand new 'Enqueue new sessions (what Devin does when a user starts one on the outpost)'
            cand list 'Every session the emulator knows'
            cand suspend 'Put a session to sleep: its remote exits; the row leaves the queue once released'
            cand resume 'Wake a suspended session: it comes back as a pending `kind=resume` entry'
            cand terminate 'End a session for good'
            cand task 'Give a session''s remote a task (proof-file text or `sh: <command>`)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;emulator;session;help;new'= {
        }
        &'outposts;emulator;session;help;list'= {
        }
        &'outposts;emulator;session;help;suspend'= {
        }
        &'outposts;emulator;session;help;resume'= {
        }
        &'outposts;emulator;session;help;terminate'= {
        }
        &'outposts;emulator;session;help;task'= {
        }
        &'outposts;emulator;session;help;help'= {
        }
        &'outposts;emulator;status'= {
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
            cand session 'Drive the emulated Devin sessions: enqueue, suspend, resume, terminate, give tasks'
            cand status 'Outposts and sessions of a running emulator'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;emulator;help;start'= {
        }
        &'outposts;emulator;help;env'= {
        }
        &'outposts;emulator;help;session'= {
            cand new 'Enqueue new sessions (what Devin does when a user starts one on the outpost)'
            cand list 'Every session the emulator knows'
            cand suspend 'Put a session to sleep: its remote exits; the row leaves the queue once released'
            cand resume 'Wake a suspended session: it comes back as a pending `kind=resume` entry'
            cand terminate 'End a session for good'
            cand task 'Give a session''s remote a task (proof-file text or `sh: <command>`)'
        }
        &'outposts;emulator;help;session;new'= {
        }
        &'outposts;emulator;help;session;list'= {
        }
        &'outposts;emulator;help;session;suspend'= {
        }
        &'outposts;emulator;help;session;resume'= {
        }
        &'outposts;emulator;help;session;terminate'= {
        }
        &'outposts;emulator;help;session;task'= {
        }
        &'outposts;emulator;help;status'= {
        }
        &'outposts;emulator;help;help'= {
        }
        &'outposts;worker'= {
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
            cand launch 'Create sandboxes that run `devin worker start --outpost=…` and wait until they serve'
            cand list 'List worker sandboxes'
            cand status 'Show a worker''s sandbox, containers, restarts and health'
            cand logs 'Print a worker''s log'
            cand exec 'Run a command in a worker''s sandbox'
            cand stop 'Stop a worker and its sandbox'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;worker;launch'= {
            cand --outpost 'Outpost (name or id) the workers serve [default: OUTPOST_ID]'
            cand --provider 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]'
            cand --count 'How many workers (one sandbox each)'
            cand --image 'Container image [default: public.ecr.aws/e0h8a4b6/devin-cli:stable]'
            cand --cpu 'CPU cores per worker (CoreWeave, Daytona)'
            cand --memory 'Memory per worker, e.g. 4Gi or 512Mi (CoreWeave, Daytona)'
            cand --gpu 'GPUs per worker: COUNT or COUNT:TYPE (e.g. 1:H100)'
            cand --max-lifetime 'Hard lifetime cap of each sandbox [default: 8h on CoreWeave; none elsewhere]'
            cand --secret 'Take the outpost token from this provider secret-store entry (mapped to DEVIN_OUTPOSTS_TOKEN) instead of DEVIN_OUTPOSTS_TOKEN'
            cand --tag 'Label the sandboxes: NAME or KEY=VALUE (repeatable)'
            cand --env 'Extra environment of the worker (repeatable; not for secrets)'
            cand --wait-timeout 'Longest wait for each worker to reach the queue (e.g. 90s, 3m; bare numbers are seconds)'
            cand --restore 'Start the worker''s /workspace from this file-system snapshot (the one `worker stop` printed; CoreWeave only: elsewhere a stopped worker keeps its disk)'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --no-wait 'Return once the sandboxes exist, without waiting for the workers'
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
        &'outposts;worker;list'= {
            cand --outpost 'Only workers of this outpost (its name or id)'
            cand --provider 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]'
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
        &'outposts;worker;status'= {
            cand --provider 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]'
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
        &'outposts;worker;logs'= {
            cand --provider 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]'
            cand --tail 'Only the last N lines'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand -f 'Keep printing new lines until Ctrl-C (or the worker''s sandbox ends)'
            cand --follow 'Keep printing new lines until Ctrl-C (or the worker''s sandbox ends)'
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
        &'outposts;worker;exec'= {
            cand --provider 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]'
            cand --timeout 'Longest the command may run (e.g. 90s, 5m; bare numbers are seconds)'
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
        &'outposts;worker;stop'= {
            cand --provider 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --no-snapshot 'Do not try to snapshot the workspace first'
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
        &'outposts;worker;help'= {
            cand launch 'Create sandboxes that run `devin worker start --outpost=…` and wait until they serve'
            cand list 'List worker sandboxes'
            cand status 'Show a worker''s sandbox, containers, restarts and health'
            cand logs 'Print a worker''s log'
            cand exec 'Run a command in a worker''s sandbox'
            cand stop 'Stop a worker and its sandbox'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;worker;help;launch'= {
        }
        &'outposts;worker;help;list'= {
        }
        &'outposts;worker;help;status'= {
        }
        &'outposts;worker;help;logs'= {
        }
        &'outposts;worker;help;exec'= {
        }
        &'outposts;worker;help;stop'= {
        }
        &'outposts;worker;help;help'= {
        }
        &'outposts;snapshot'= {
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
            cand build 'Build the snapshot on Daytona, or reuse it when it already exists'
            cand name 'Print the snapshot name (SNAPSHOT_NAME, or derived from the image definition). No network'
            cand dockerfile 'Print the embedded default Dockerfile (or, with --platform windows, the provisioner)'
            cand list 'List the organization''s snapshots'
            cand delete 'Delete a snapshot by name (asks first on a terminal; --yes otherwise)'
            cand warm-pool 'Show, set or delete the Daytona warm pool of the snapshot in use'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;snapshot;build'= {
            cand --dockerfile 'Dockerfile to build instead of the embedded default (Linux only)'
            cand --context 'Directory COPY/ADD sources would come from (default: the Dockerfile''s directory). Local sources are refused: build-context upload is not supported'
            cand --platform 'Which image: Linux (Dockerfile) or Windows (provisioner script)'
            cand --cpu 'vCPUs of sandboxes created from the snapshot'
            cand --memory 'Memory of sandboxes created from the snapshot, whole GiB (e.g. 16Gi, or 16)'
            cand --disk 'Disk of sandboxes created from the snapshot, whole GiB (e.g. 20Gi, or 20)'
            cand --name 'Snapshot name (wins over SNAPSHOT_NAME and the derived name)'
            cand --region 'Daytona region [default: DAYTONA_TARGET, else the organization''s default]'
            cand --timeout 'Give up following the build after this long (the build continues on Daytona)'
            cand --remote-sha 'The devin-remote build (git sha) to bake [default: the distribution''s latest]'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --write-env 'Record SNAPSHOT_NAME in the .env file (kept atomically; other lines untouched)'
            cand --bake-remote 'Bake the published devin-remote Linux builds (latest, or --remote-sha) into the image''s launch cache, verified by sha256 at build time: sessions on that build skip the download'
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
        &'outposts;snapshot;name'= {
            cand --dockerfile 'Dockerfile to hash instead of the embedded default (Linux only)'
            cand --platform 'Which image: Linux (Dockerfile) or Windows (provisioner script)'
            cand --name 'Use this name (wins over SNAPSHOT_NAME and the derived name)'
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
        &'outposts;snapshot;dockerfile'= {
            cand --platform 'Which image: Linux (Dockerfile) or Windows (provisioner script)'
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
        &'outposts;snapshot;list'= {
            cand --name 'Only snapshots whose name contains this'
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
        &'outposts;snapshot;delete'= {
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
        &'outposts;snapshot;warm-pool'= {
            cand --snapshot 'Snapshot whose pool this is [default: SNAPSHOT_NAME or the content-hashed default]'
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
            cand show 'Show the pool (the default)'
            cand set 'Keep N started sandboxes of the snapshot ready (creates the pool; 0 drains it)'
            cand delete 'Delete the pool and its waiting sandboxes'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;snapshot;warm-pool;show'= {
            cand --snapshot 'Snapshot whose pool this is [default: SNAPSHOT_NAME or the content-hashed default]'
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
        &'outposts;snapshot;warm-pool;set'= {
            cand --snapshot 'Snapshot whose pool this is [default: SNAPSHOT_NAME or the content-hashed default]'
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
        &'outposts;snapshot;warm-pool;delete'= {
            cand --snapshot 'Snapshot whose pool this is [default: SNAPSHOT_NAME or the content-hashed default]'
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
        &'outposts;snapshot;warm-pool;help'= {
            cand show 'Show the pool (the default)'
            cand set 'Keep N started sandboxes of the snapshot ready (creates the pool; 0 drains it)'
            cand delete 'Delete the pool and its waiting sandboxes'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;snapshot;warm-pool;help;show'= {
        }
        &'outposts;snapshot;warm-pool;help;set'= {
        }
        &'outposts;snapshot;warm-pool;help;delete'= {
        }
        &'outposts;snapshot;warm-pool;help;help'= {
        }
        &'outposts;snapshot;help'= {
            cand build 'Build the snapshot on Daytona, or reuse it when it already exists'
            cand name 'Print the snapshot name (SNAPSHOT_NAME, or derived from the image definition). No network'
            cand dockerfile 'Print the embedded default Dockerfile (or, with --platform windows, the provisioner)'
            cand list 'List the organization''s snapshots'
            cand delete 'Delete a snapshot by name (asks first on a terminal; --yes otherwise)'
            cand warm-pool 'Show, set or delete the Daytona warm pool of the snapshot in use'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;snapshot;help;build'= {
        }
        &'outposts;snapshot;help;name'= {
        }
        &'outposts;snapshot;help;dockerfile'= {
        }
        &'outposts;snapshot;help;list'= {
        }
        &'outposts;snapshot;help;delete'= {
        }
        &'outposts;snapshot;help;warm-pool'= {
            cand show 'Show the pool (the default)'
            cand set 'Keep N started sandboxes of the snapshot ready (creates the pool; 0 drains it)'
            cand delete 'Delete the pool and its waiting sandboxes'
        }
        &'outposts;snapshot;help;warm-pool;show'= {
        }
        &'outposts;snapshot;help;warm-pool;set'= {
        }
        &'outposts;snapshot;help;warm-pool;delete'= {
        }
        &'outposts;snapshot;help;help'= {
        }
        &'outposts;session'= {
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
            cand verify 'Prove a session runs in your sandbox: print a task with a fresh proof value, then wait for Devin to write it and read it back from that sandbox'
            cand create 'Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID)'
            cand show 'Show a session: v3 status and detail, fleet queue row, sandbox'
            cand end 'End (terminate) a session through the v3 API'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;session;verify'= {
            cand --sandbox 'Sandbox id or name to read (a fixed worker''s, or any sandbox)'
            cand --session 'Devin session id; its sandbox is the orchestrator''s (`devin-<id>-<hash>`, labelled)'
            cand --provider 'Where the sandbox runs [default: OUTPOSTS_PROVIDER or daytona]'
            cand --outpost 'The outpost (name, or `outpost_env-…` id). With --create: the one the session is created on [default: OUTPOST_ID, else the organisation''s default platform]. Otherwise: the name for the Slack line [default: OUTPOST_ID''s name]'
            cand --proof 'The value to expect [default: a fresh `outpost-proof-<12 hex>`]'
            cand --path 'Absolute path of the proof file inside the sandbox'
            cand --wait 'How long to wait for the file (e.g. 90s, 10m, 1h)'
            cand --org 'With --create: the organisation [default: DEVIN_ORG_ID]'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --print-only 'Print the task and the Slack line, then exit 0; no provider is contacted'
            cand --create 'Create the proof session yourself through Devin''s v3 API on the outpost, follow it, read the file back and end the session (DEVIN_API_KEY, DEVIN_ORG_ID). Unattended'
            cand --keep-session 'With --create: leave the proof session running afterwards'
            cand --sleep-cycle 'With --create: once the proof is read, suspend the session, wait for its sandbox to sleep, resume it, and read the proof again once it is served (the emulator only: Devin''s v3 API cannot suspend a session)'
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
        }
        &'outposts;session;create'= {
            cand --prompt 'The task for Devin'
            cand --outpost 'Outpost name or id to run on [default: OUTPOST_ID; none: the organisation default]'
            cand --title 'The session''s title in the Devin app [default: Devin names it from the prompt]'
            cand --tag 'A tag (repeatable)'
            cand --until 'Wait until the session is served or finished'
            cand --wait 'How long --until waits (e.g. 90s, 10m)'
            cand --org 'The organisation to create it in (`org-…`) [default: DEVIN_ORG_ID]'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --keep-session 'With --until: on SIGINT/SIGTERM leave the session running (it is ended otherwise)'
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
        }
        &'outposts;session;show'= {
            cand --provider 'Look for the session''s sandbox on this provider'
            cand --org 'The organisation the session belongs to (`org-…`) [default: DEVIN_ORG_ID]'
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
        &'outposts;session;end'= {
            cand --org 'The organisation the session belongs to (`org-…`) [default: DEVIN_ORG_ID]'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --archive 'Archive it as well'
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
        &'outposts;session;help'= {
            cand verify 'Prove a session runs in your sandbox: print a task with a fresh proof value, then wait for Devin to write it and read it back from that sandbox'
            cand create 'Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID)'
            cand show 'Show a session: v3 status and detail, fleet queue row, sandbox'
            cand end 'End (terminate) a session through the v3 API'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;session;help;verify'= {
        }
        &'outposts;session;help;create'= {
        }
        &'outposts;session;help;show'= {
        }
        &'outposts;session;help;end'= {
        }
        &'outposts;session;help;help'= {
        }
        &'outposts;doctor'= {
            cand --timeout 'Longest any single check may take (e.g. 10s, 1m)'
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
        &'outposts;cost'= {
            cand --since 'Only time since this long ago (e.g. 24h, 7d); default: everything the ledger holds'
            cand --by 'One row per session, outpost or UTC day'
            cand --color 'When to use colour. NO_COLOR in the environment means never'
            cand --env-file 'Read settings from this .env file instead of ./.env'
            cand --config 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)'
            cand --log-format 'Format of log lines on stderr'
            cand --csv 'CSV (RFC 4180) on stdout instead of a table'
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
            cand --dir 'Repository root to write `completions/`, `man/`, `deploy/kubernetes/` and `docs/` into'
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
            cand demo 'Run the whole job on the built-in emulator, narrated: claim, serve, sleep, wake, terminate'
            cand connect 'Connect an outpost from the browser and store its token (PKCE partner flow)'
            cand auth 'Show or forget the stored outpost token'
            cand outpost 'Create, list, inspect and delete outposts (orchestrator-scope token)'
            cand queue 'Read the outpost''s session queue'
            cand orchestrator 'Serve the outpost: one sandbox per Devin session (long-running), and inspect it'
            cand emulator 'Serve the Devin, Daytona and CoreWeave APIs on loopback, and drive its sessions'
            cand worker 'Fixed workers: sandboxes running `devin worker start --outpost=…` (CoreWeave model)'
            cand snapshot 'Build, name, list and delete the Daytona snapshot sandboxes boot from'
            cand session 'Prove a Devin session runs on your compute (proof file written by Devin, read back)'
            cand doctor 'Check settings, tokens, outpost, snapshot, port, state dir and clock; print the fixes'
            cand cost 'What sandboxes cost: per session, outpost or day, from the orchestrator''s cost ledger'
            cand help-env 'Print every environment variable `outposts` reads, with its default and meaning'
            cand completions 'Print a shell completion script'
            cand generate 'Write completions/ and man/ from the CLI definition (for maintainers)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'outposts;help;demo'= {
        }
        &'outposts;help;connect'= {
        }
        &'outposts;help;auth'= {
            cand status 'Which token is in force (environment, .env, keyring) and whether the API accepts it'
            cand set-key 'Store DEVIN_API_KEY (the v3 API key), read from stdin or a hidden prompt, in .env or the OS keyring'
            cand logout 'Forget the stored token and v3 API key: their OS keyring entries and their .env lines (DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY)'
        }
        &'outposts;help;auth;status'= {
        }
        &'outposts;help;auth;set-key'= {
        }
        &'outposts;help;auth;logout'= {
        }
        &'outposts;help;outpost'= {
            cand create 'Create an outpost and print its OUTPOST_ID (orchestrator scope)'
            cand list 'List every outpost of the account (all pages)'
            cand get 'Show one outpost with its queue depth and active claims'
            cand delete 'Delete an outpost (orchestrator scope); an outpost already gone is not an error'
            cand default 'Show or change the organisation''s default platform (DEVIN_API_KEY, DEVIN_ORG_ID)'
        }
        &'outposts;help;outpost;create'= {
        }
        &'outposts;help;outpost;list'= {
        }
        &'outposts;help;outpost;get'= {
        }
        &'outposts;help;outpost;delete'= {
        }
        &'outposts;help;outpost;default'= {
            cand set 'Make a shared outpost (name or id) or a hosted label the organisation''s default'
            cand clear 'Remove the organisation''s default platform'
        }
        &'outposts;help;outpost;default;set'= {
        }
        &'outposts;help;outpost;default;clear'= {
        }
        &'outposts;help;queue'= {
            cand list 'List every queued session of the outpost (all pages)'
            cand watch 'Follow queue changes as they happen (reconnects by itself; Ctrl-C to stop)'
        }
        &'outposts;help;queue;list'= {
        }
        &'outposts;help;queue;watch'= {
        }
        &'outposts;help;orchestrator'= {
            cand run 'Serve the outpost''s queue: one sandbox per session, until SIGTERM'
            cand status 'Show this instance''s identity, cursor age and the sessions it holds'
            cand failures 'Show the failure records: why a session''s sandbox failed, with its last log lines'
        }
        &'outposts;help;orchestrator;run'= {
        }
        &'outposts;help;orchestrator;status'= {
        }
        &'outposts;help;orchestrator;failures'= {
        }
        &'outposts;help;emulator'= {
            cand start 'Serve the emulated APIs on loopback until SIGINT/SIGTERM'
            cand env 'Print `export` lines that point every client at a running emulator'
            cand session 'Drive the emulated Devin sessions: enqueue, suspend, resume, terminate, give tasks'
            cand status 'Outposts and sessions of a running emulator'
        }
        &'outposts;help;emulator;start'= {
        }
        &'outposts;help;emulator;env'= {
        }
        &'outposts;help;emulator;session'= {
            cand new 'Enqueue new sessions (what Devin does when a user starts one on the outpost)'
            cand list 'Every session the emulator knows'
            cand suspend 'Put a session to sleep: its remote exits; the row leaves the queue once released'
            cand resume 'Wake a suspended session: it comes back as a pending `kind=resume` entry'
            cand terminate 'End a session for good'
            cand task 'Give a session''s remote a task (proof-file text or `sh: <command>`)'
        }
        &'outposts;help;emulator;session;new'= {
        }
        &'outposts;help;emulator;session;list'= {
        }
        &'outposts;help;emulator;session;suspend'= {
        }
        &'outposts;help;emulator;session;resume'= {
        }
        &'outposts;help;emulator;session;terminate'= {
        }
        &'outposts;help;emulator;session;task'= {
        }
        &'outposts;help;emulator;status'= {
        }
        &'outposts;help;worker'= {
            cand launch 'Create sandboxes that run `devin worker start --outpost=…` and wait until they serve'
            cand list 'List worker sandboxes'
            cand status 'Show a worker''s sandbox, containers, restarts and health'
            cand logs 'Print a worker''s log'
            cand exec 'Run a command in a worker''s sandbox'
            cand stop 'Stop a worker and its sandbox'
        }
        &'outposts;help;worker;launch'= {
        }
        &'outposts;help;worker;list'= {
        }
        &'outposts;help;worker;status'= {
        }
        &'outposts;help;worker;logs'= {
        }
        &'outposts;help;worker;exec'= {
        }
        &'outposts;help;worker;stop'= {
        }
        &'outposts;help;snapshot'= {
            cand build 'Build the snapshot on Daytona, or reuse it when it already exists'
            cand name 'Print the snapshot name (SNAPSHOT_NAME, or derived from the image definition). No network'
            cand dockerfile 'Print the embedded default Dockerfile (or, with --platform windows, the provisioner)'
            cand list 'List the organization''s snapshots'
            cand delete 'Delete a snapshot by name (asks first on a terminal; --yes otherwise)'
            cand warm-pool 'Show, set or delete the Daytona warm pool of the snapshot in use'
        }
        &'outposts;help;snapshot;build'= {
        }
        &'outposts;help;snapshot;name'= {
        }
        &'outposts;help;snapshot;dockerfile'= {
        }
        &'outposts;help;snapshot;list'= {
        }
        &'outposts;help;snapshot;delete'= {
        }
        &'outposts;help;snapshot;warm-pool'= {
            cand show 'Show the pool (the default)'
            cand set 'Keep N started sandboxes of the snapshot ready (creates the pool; 0 drains it)'
            cand delete 'Delete the pool and its waiting sandboxes'
        }
        &'outposts;help;snapshot;warm-pool;show'= {
        }
        &'outposts;help;snapshot;warm-pool;set'= {
        }
        &'outposts;help;snapshot;warm-pool;delete'= {
        }
        &'outposts;help;session'= {
            cand verify 'Prove a session runs in your sandbox: print a task with a fresh proof value, then wait for Devin to write it and read it back from that sandbox'
            cand create 'Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID)'
            cand show 'Show a session: v3 status and detail, fleet queue row, sandbox'
            cand end 'End (terminate) a session through the v3 API'
        }
        &'outposts;help;session;verify'= {
        }
        &'outposts;help;session;create'= {
        }
        &'outposts;help;session;show'= {
        }
        &'outposts;help;session;end'= {
        }
        &'outposts;help;doctor'= {
        }
        &'outposts;help;cost'= {
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
