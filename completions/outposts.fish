# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_outposts_global_optspecs
    string join \n json q/quiet v/verbose color= env-file= config= y/yes log-format= h/help V/version
end

function __fish_outposts_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_outposts_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_outposts_using_subcommand
    set -l cmd (__fish_outposts_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c outposts -n "__fish_outposts_needs_command" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_needs_command" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_needs_command" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_needs_command" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_needs_command" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_needs_command" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_needs_command" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_needs_command" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c outposts -n "__fish_outposts_needs_command" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "demo" -d 'Run the whole job on the built-in emulator, narrated: claim, serve, sleep, wake, terminate'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "connect" -d 'Connect an outpost from the browser and store its token (PKCE partner flow)'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "auth" -d 'Show or forget the stored outpost token'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "outpost" -d 'Create, list, inspect and delete outposts (orchestrator-scope token)'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "queue" -d 'Read the outpost\'s session queue'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "orchestrator" -d 'Serve the outpost: one sandbox per Devin session (long-running), and inspect it'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "emulator" -d 'Serve the Devin, Daytona and CoreWeave APIs on loopback, and drive its sessions'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "worker" -d 'Fixed workers: sandboxes running `devin worker start --outpost=…` (CoreWeave model)'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "snapshot" -d 'Build, name, list and delete the Daytona snapshot sandboxes boot from'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "session" -d 'Prove a Devin session runs on your compute (proof file written by Devin, read back)'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "doctor" -d 'Check settings, tokens, outpost, snapshot, port, state dir and clock; print the fixes'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "cost" -d 'What sandboxes cost: per session, outpost or day, from the orchestrator\'s cost ledger'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "help-env" -d 'Print every environment variable `outposts` reads, with its default and meaning'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "generate" -d 'Write completions/ and man/ from the CLI definition (for maintainers)'
complete -c outposts -n "__fish_outposts_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand demo" -l keep -d 'Keep the emulator\'s data and the sandboxes in this directory instead of a temporary one' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand demo" -l step-timeout -d 'Longest wait for each step' -r
complete -c outposts -n "__fish_outposts_using_subcommand demo" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand demo" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand demo" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand demo" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand demo" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand demo" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand demo" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand demo" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand demo" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand demo" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l platform -d 'Platform of the new outpost (editable on the connect page)' -r -f -a "linux\t''
windows\t''"
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l name -d 'Name of the new outpost [default: daytona-<platform>] (editable on the connect page)' -r
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l store -d 'Where to keep the token: .env (mode 0600) or the OS keyring (falls back to .env when no keyring is available)' -r -f -a "env\t'`.env` (mode 0600), with DEVIN_API_URL and OUTPOST_ID'
keyring\t'The OS keyring; only DEVIN_API_URL and OUTPOST_ID go to `.env`'"
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l timeout -d 'Give up waiting for the browser after this long (e.g. 90s, 10m)' -r
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l port -d 'Local callback port [default: OUTPOSTS_CONNECT_PORT, else 8765]. Devin redirects only to its allowlisted callback (port 8765); 0 picks a free port (emulator only)' -r
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l force -d 'Replace DEVIN_OUTPOSTS_TOKEN, DEVIN_API_URL and OUTPOST_ID in a .env that already holds an outpost (every other line is kept)'
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l no-browser -d 'Only print the URL; do not start a browser'
complete -c outposts -n "__fish_outposts_using_subcommand connect" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand connect" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand connect" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand connect" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand connect" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c outposts -n "__fish_outposts_using_subcommand connect" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -f -a "status" -d 'Which token is in force (environment, .env, keyring) and whether the API accepts it'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -f -a "set-key" -d 'Store DEVIN_API_KEY (the v3 API key), read from stdin or a hidden prompt, in .env or the OS keyring'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -f -a "logout" -d 'Forget the stored token and v3 API key: their OS keyring entries and their .env lines (DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY)'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and not __fish_seen_subcommand_from status set-key logout help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -l offline -d 'Do not call the API to check the token'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -l store -d 'Where to keep DEVIN_API_KEY: `env` writes only its line to .env (mode 0600); `keyring` keeps it in the OS keyring (falls back to .env when no keyring is available). Nothing else is written' -r -f -a "env\t'`.env` (mode 0600), with DEVIN_API_URL and OUTPOST_ID'
keyring\t'The OS keyring; only DEVIN_API_URL and OUTPOST_ID go to `.env`'"
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -l offline -d 'Store the key without asking the API whether it accepts it'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from set-key" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from logout" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from logout" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from logout" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from logout" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from logout" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from logout" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from logout" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from logout" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from logout" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from logout" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'Which token is in force (environment, .env, keyring) and whether the API accepts it'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "set-key" -d 'Store DEVIN_API_KEY (the v3 API key), read from stdin or a hidden prompt, in .env or the OS keyring'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "logout" -d 'Forget the stored token and v3 API key: their OS keyring entries and their .env lines (DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY)'
complete -c outposts -n "__fish_outposts_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -f -a "create" -d 'Create an outpost and print its OUTPOST_ID (orchestrator scope)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -f -a "list" -d 'List every outpost of the account (all pages)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -f -a "get" -d 'Show one outpost with its queue depth and active claims'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -f -a "delete" -d 'Delete an outpost (orchestrator scope); an outpost already gone is not an error'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -f -a "default" -d 'Show or change the organisation\'s default platform (DEVIN_API_KEY, DEVIN_ORG_ID)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and not __fish_seen_subcommand_from create list get delete default help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -l platform -d 'Platform of its machines' -r -f -a "linux\t''
windows\t''
macos\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -l description -d 'Free-text description' -r
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -l token-env -d 'Read the token from this environment variable instead of the default one' -r
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -l write-env -d 'Also write OUTPOST_ID to .env (or --env-file), replacing a previous value'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -l token-env -d 'Read the token from this environment variable instead of the default one' -r
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -l token-env -d 'Read the token from this environment variable instead of the default one' -r
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -l token-env -d 'Read the token from this environment variable instead of the default one' -r
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -l org -d 'Organisation id [default: DEVIN_ORG_ID]' -r
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -f -a "set" -d 'Make a shared outpost (name or id) or a hosted label the organisation\'s default'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -f -a "clear" -d 'Remove the organisation\'s default platform'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from default" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create an outpost and print its OUTPOST_ID (orchestrator scope)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from help" -f -a "list" -d 'List every outpost of the account (all pages)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from help" -f -a "get" -d 'Show one outpost with its queue depth and active claims'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete an outpost (orchestrator scope); an outpost already gone is not an error'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from help" -f -a "default" -d 'Show or change the organisation\'s default platform (DEVIN_API_KEY, DEVIN_ORG_ID)'
complete -c outposts -n "__fish_outposts_using_subcommand outpost; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -f -a "list" -d 'List every queued session of the outpost (all pages)'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -f -a "watch" -d 'Follow queue changes as they happen (reconnects by itself; Ctrl-C to stop)'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and not __fish_seen_subcommand_from list watch help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -l phase -d 'Only entries in this phase' -r -f -a "pending\t''
claimed\t''"
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -l acceptor -d 'Only entries claimed by this acceptor id' -r
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -l outpost -d 'Outpost (name or id) whose queue to read [default: OUTPOST_ID; every outpost when unset]' -r
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -l outpost -d 'Outpost (name or id) to watch [default: OUTPOST_ID; every outpost when unset]' -r
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -l cursor -d 'Resume after this cursor (from a previous event or `queue list`)' -r
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -l limit -d 'Exit 0 after this many events' -r
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -l from-start -d 'Replay the whole queue first instead of starting from now'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from watch" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "list" -d 'List every queued session of the outpost (all pages)'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "watch" -d 'Follow queue changes as they happen (reconnects by itself; Ctrl-C to stop)'
complete -c outposts -n "__fish_outposts_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -f -a "run" -d 'Serve the outpost\'s queue: one sandbox per session, until SIGTERM'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -f -a "status" -d 'Show this instance\'s identity, cursor age and the sessions it holds'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -f -a "failures" -d 'Show the failure records: why a session\'s sandbox failed, with its last log lines'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and not __fish_seen_subcommand_from run status failures help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l provider -d 'Where sessions run [default: OUTPOSTS_PROVIDER or daytona]' -r -f -a "daytona\t''
coreweave\t''
local\t''"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l launch -d 'How the session is served inside the sandbox' -r -f -a "remote\t'Download, verify and run `devin-remote serve` (the documented spawn contract)'
cli\t'Run `devin worker start --session <id>` (the CLI\'s direct-serve mode), which fetches the remote itself; the sandbox image must provide `devin`'"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l outpost -d 'Outpost name or id [default: OUTPOST_ID]' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l max-concurrent-sessions -d 'Most sessions held at once [default: MAX_CONCURRENT_SESSIONS or 5]' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l snapshot -d 'Snapshot new sandboxes start from (Daytona) [default: SNAPSHOT_NAME or the content-hashed default]' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l windows-snapshot -d 'Snapshot Windows sessions\' sandboxes start from (Daytona) [default: the content-hashed Windows snapshot `snapshot build --platform windows` makes]' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l image -d 'Image new sandboxes start from, instead of a snapshot' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l metrics-addr -d 'Serve Prometheus `/metrics` and `/healthz` here (off by default)' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l janitor-grace -d 'How long a new sandbox is safe from the janitor (e.g. 90s, 5m; bare numbers are seconds)' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l ready-timeout -d 'Longest wait for a sandbox to start (e.g. 90s, 5m; bare numbers are seconds)' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l adopt-from -d 'Take over the sessions this STATE_DIR holds on another provider: their sandboxes there are stopped first (disks kept), then they are served here. Needed once when the provider (or its endpoint) changes while sessions are held; without it such a start exits 2' -r -f -a "daytona\t''
coreweave\t''
local\t''"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from run" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -l outpost -d 'Outpost name or id [default: OUTPOST_ID]' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -l interval -d 'Seconds between refreshes of --watch' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -l watch -d 'Keep watching: a live table on a terminal, NDJSON snapshots otherwise (or with --json)'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -l outpost -d 'Outpost name or id [default: OUTPOST_ID]' -r
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from failures" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from help" -f -a "run" -d 'Serve the outpost\'s queue: one sandbox per session, until SIGTERM'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show this instance\'s identity, cursor age and the sessions it holds'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from help" -f -a "failures" -d 'Show the failure records: why a session\'s sandbox failed, with its last log lines'
complete -c outposts -n "__fish_outposts_using_subcommand orchestrator; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -f -a "start" -d 'Serve the emulated APIs on loopback until SIGINT/SIGTERM'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -f -a "env" -d 'Print `export` lines that point every client at a running emulator'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -f -a "session" -d 'Drive the emulated Devin sessions: enqueue, suspend, resume, terminate, give tasks'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -f -a "status" -d 'Outposts and sessions of a running emulator'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and not __fish_seen_subcommand_from start env session status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l port -d 'Port to listen on (0 picks a free one) [default: OUTPOSTS_EMULATOR_PORT or 8790]' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l data-dir -d 'Keep sandboxes and the request log here (default: a temporary directory removed at exit)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l state -d 'Load the Devin queue from this file at start and save it at exit' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l faults -d 'Fault script: inline JSON or a JSON file (see `POST /_emulator/faults`)' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l seed -d 'Seed for every random choice the emulator makes' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l claim-ttl -d 'Claim lifetime' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l max-stream -d 'Longest a watch stream stays open' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l keepalive -d 'Interval of keepalive comments on idle watch streams' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l sweep-delay -d 'How long a released suspended/terminated session\'s row lingers before it is swept' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l remote-form -d 'What `devin-remote` is for Linux: `binary` (a real executable, the running process is the file) or `script` (a POSIX shell script that behaves the same; its process is the shell)' -r -f -a "binary\t'A real executable: the running process is the downloaded file'
script\t'A `#!/bin/sh` script: the running process is the shell (`/proc/<pid>/exe` names `sh`)'"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l windows-daemon -d 'Which Windows daemon Windows sandboxes follow: `legacy` (`cmd.exe /C`, an exec\'s envs dropped, nothing killed on a timeout) or `newer` (`cmd.exe /S /C "…"`, envs applied, the process tree killed on a timeout)' -r -f -a "legacy\t'`apps/daemon-win`: `cmd.exe /C`, `envs` dropped, nothing killed on a timeout'
newer\t'The newer daemon: `cmd.exe /S /C "…"`, `envs` applied, the tree killed on a timeout'"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l outpost-get-route -d 'How `GET /opbeta/outposts/{id}` answers: `served`, or absent as in Cognition\'s model of the server (`404` unknown path, `405` method not allowed)' -r -f -a "served\t''
404\t''
405\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l gateway-url -d 'The gateway URL claim answers carry (default: the emulator\'s own). A URL the fake remote cannot use (e.g. `wss://…`) makes it exit 2 at once, with the reason in its log' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l page-size -d 'Most rows one queue list page serves, whatever `first` asks (pages overlap by one row)' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l watch-replay -d 'How far before its cursor a watch replays rows (at-least-once delivery): it sends every row changed at or after the cursor minus this; with 0s only the row at the cursor itself is sent again' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l daytona-create-delay -d 'How long an emulated Daytona sandbox takes from `creating` to `started` (a real one takes seconds; warm capacity is worth measuring only when it does here too) [default: 200ms]. Also `PUT /_emulator/daytona/settings` `create_ms`' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l daytona-start-delay -d 'How long an emulated Daytona sandbox takes from `starting` to `started` [default: 150ms]' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l sandboxes -d 'What a Daytona or CoreWeave sandbox is: `process` (a real local sandbox running the fake remote) or `simulated` (a record only; the remote is simulated inside the emulator, so tens of thousands of sessions fit on one machine)' -r -f -a "process\t''
simulated\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l sim-delay -d 'With `--sandboxes simulated`: how long each exec and each create, start and stop takes' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from start" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -l port -d 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from env" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -f -a "new" -d 'Enqueue new sessions (what Devin does when a user starts one on the outpost)'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -f -a "list" -d 'Every session the emulator knows'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -f -a "suspend" -d 'Put a session to sleep: its remote exits; the row leaves the queue once released'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -f -a "resume" -d 'Wake a suspended session: it comes back as a pending `kind=resume` entry'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -f -a "terminate" -d 'End a session for good'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -f -a "task" -d 'Give a session\'s remote a task (proof-file text or `sh: <command>`)'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from session" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -l port -d 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]' -r
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from help" -f -a "start" -d 'Serve the emulated APIs on loopback until SIGINT/SIGTERM'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from help" -f -a "env" -d 'Print `export` lines that point every client at a running emulator'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from help" -f -a "session" -d 'Drive the emulated Devin sessions: enqueue, suspend, resume, terminate, give tasks'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from help" -f -a "status" -d 'Outposts and sessions of a running emulator'
complete -c outposts -n "__fish_outposts_using_subcommand emulator; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -f -a "launch" -d 'Create sandboxes that run `devin worker start --outpost=…` and wait until they serve'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -f -a "list" -d 'List worker sandboxes'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -f -a "status" -d 'Show a worker\'s sandbox, containers, restarts and health'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -f -a "logs" -d 'Print a worker\'s log'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -f -a "exec" -d 'Run a command in a worker\'s sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -f -a "stop" -d 'Stop a worker and its sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and not __fish_seen_subcommand_from launch list status logs exec stop help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l outpost -d 'Outpost (name or id) the workers serve [default: OUTPOST_ID]' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l provider -d 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker\'s own, found by its id]' -r -f -a "daytona\t''
coreweave\t''
local\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l count -d 'How many workers (one sandbox each)' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l image -d 'Container image [default: public.ecr.aws/e0h8a4b6/devin-cli:stable]' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l cpu -d 'CPU cores per worker (CoreWeave, Daytona)' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l memory -d 'Memory per worker, e.g. 4Gi or 512Mi (CoreWeave, Daytona)' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l gpu -d 'GPUs per worker: COUNT or COUNT:TYPE (e.g. 1:H100)' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l max-lifetime -d 'Hard lifetime cap of each sandbox [default: 8h on CoreWeave; none elsewhere]' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l secret -d 'Take the outpost token from this provider secret-store entry (mapped to DEVIN_OUTPOSTS_TOKEN) instead of DEVIN_OUTPOSTS_TOKEN' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l tag -d 'Label the sandboxes: NAME or KEY=VALUE (repeatable)' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l env -d 'Extra environment of the worker (repeatable; not for secrets)' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l wait-timeout -d 'Longest wait for each worker to reach the queue (e.g. 90s, 3m; bare numbers are seconds)' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l restore -d 'Start the worker\'s /workspace from this file-system snapshot (the one `worker stop` printed; CoreWeave only: elsewhere a stopped worker keeps its disk)' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l no-wait -d 'Return once the sandboxes exist, without waiting for the workers'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from launch" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -l outpost -d 'Only workers of this outpost (its name or id)' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -l provider -d 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker\'s own, found by its id]' -r -f -a "daytona\t''
coreweave\t''
local\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -l provider -d 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker\'s own, found by its id]' -r -f -a "daytona\t''
coreweave\t''
local\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -l provider -d 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker\'s own, found by its id]' -r -f -a "daytona\t''
coreweave\t''
local\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -l tail -d 'Only the last N lines' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -s f -l follow -d 'Keep printing new lines until Ctrl-C (or the worker\'s sandbox ends)'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from logs" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -l provider -d 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker\'s own, found by its id]' -r -f -a "daytona\t''
coreweave\t''
local\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -l timeout -d 'Longest the command may run (e.g. 90s, 5m; bare numbers are seconds)' -r
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from exec" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -l provider -d 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker\'s own, found by its id]' -r -f -a "daytona\t''
coreweave\t''
local\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -l no-snapshot -d 'Do not try to snapshot the workspace first'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from stop" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from help" -f -a "launch" -d 'Create sandboxes that run `devin worker start --outpost=…` and wait until they serve'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from help" -f -a "list" -d 'List worker sandboxes'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show a worker\'s sandbox, containers, restarts and health'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from help" -f -a "logs" -d 'Print a worker\'s log'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from help" -f -a "exec" -d 'Run a command in a worker\'s sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from help" -f -a "stop" -d 'Stop a worker and its sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand worker; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -f -a "build" -d 'Build the snapshot on Daytona, or reuse it when it already exists'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -f -a "name" -d 'Print the snapshot name (SNAPSHOT_NAME, or derived from the image definition). No network'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -f -a "dockerfile" -d 'Print the embedded default Dockerfile (or, with --platform windows, the provisioner)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -f -a "list" -d 'List the organization\'s snapshots'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -f -a "delete" -d 'Delete a snapshot by name (asks first on a terminal; --yes otherwise)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -f -a "warm-pool" -d 'Show, set or delete the Daytona warm pool of the snapshot in use'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and not __fish_seen_subcommand_from build name dockerfile list delete warm-pool help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l dockerfile -d 'Dockerfile to build instead of the embedded default (Linux only)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l context -d 'Directory COPY/ADD sources would come from (default: the Dockerfile\'s directory). Local sources are refused: build-context upload is not supported' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l platform -d 'Which image: Linux (Dockerfile) or Windows (provisioner script)' -r -f -a "linux\t''
windows\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l cpu -d 'vCPUs of sandboxes created from the snapshot' -r
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l memory -d 'Memory of sandboxes created from the snapshot, whole GiB (e.g. 16Gi, or 16)' -r
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l disk -d 'Disk of sandboxes created from the snapshot, whole GiB (e.g. 20Gi, or 20)' -r
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l name -d 'Snapshot name (wins over SNAPSHOT_NAME and the derived name)' -r
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l region -d 'Daytona region [default: DAYTONA_TARGET, else the organization\'s default]' -r
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l timeout -d 'Give up following the build after this long (the build continues on Daytona)' -r
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l remote-sha -d 'The devin-remote build (git sha) to bake [default: the distribution\'s latest]' -r
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l write-env -d 'Record SNAPSHOT_NAME in the .env file (kept atomically; other lines untouched)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l bake-remote -d 'Bake the published devin-remote Linux builds (latest, or --remote-sha) into the image\'s launch cache, verified by sha256 at build time: sessions on that build skip the download'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from build" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -l dockerfile -d 'Dockerfile to hash instead of the embedded default (Linux only)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -l platform -d 'Which image: Linux (Dockerfile) or Windows (provisioner script)' -r -f -a "linux\t''
windows\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -l name -d 'Use this name (wins over SNAPSHOT_NAME and the derived name)' -r
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from name" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -l platform -d 'Which image: Linux (Dockerfile) or Windows (provisioner script)' -r -f -a "linux\t''
windows\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from dockerfile" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l name -d 'Only snapshots whose name contains this' -r
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -l snapshot -d 'Snapshot whose pool this is [default: SNAPSHOT_NAME or the content-hashed default]' -r
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -f -a "show" -d 'Show the pool (the default)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -f -a "set" -d 'Keep N started sandboxes of the snapshot ready (creates the pool; 0 drains it)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -f -a "delete" -d 'Delete the pool and its waiting sandboxes'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from warm-pool" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "build" -d 'Build the snapshot on Daytona, or reuse it when it already exists'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "name" -d 'Print the snapshot name (SNAPSHOT_NAME, or derived from the image definition). No network'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "dockerfile" -d 'Print the embedded default Dockerfile (or, with --platform windows, the provisioner)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the organization\'s snapshots'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete a snapshot by name (asks first on a terminal; --yes otherwise)'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "warm-pool" -d 'Show, set or delete the Daytona warm pool of the snapshot in use'
complete -c outposts -n "__fish_outposts_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -f -a "verify" -d 'Prove a session runs in your sandbox: print a task with a fresh proof value, then wait for Devin to write it and read it back from that sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -f -a "create" -d 'Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -f -a "show" -d 'Show a session: v3 status and detail, fleet queue row, sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -f -a "end" -d 'End (terminate) a session through the v3 API'
complete -c outposts -n "__fish_outposts_using_subcommand session; and not __fish_seen_subcommand_from verify create show end help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l sandbox -d 'Sandbox id or name to read (a fixed worker\'s, or any sandbox)' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l session -d 'Devin session id; its sandbox is the orchestrator\'s (`devin-<id>-<hash>`, labelled)' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l provider -d 'Where the sandbox runs [default: OUTPOSTS_PROVIDER or daytona]' -r -f -a "daytona\t''
coreweave\t''
local\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l outpost -d 'The outpost (name, or `outpost_env-…` id). With --create: the one the session is created on [default: OUTPOST_ID, else the organisation\'s default platform]. Otherwise: the name for the Slack line [default: OUTPOST_ID\'s name]' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l proof -d 'The value to expect [default: a fresh `outpost-proof-<12 hex>`]' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l path -d 'Absolute path of the proof file inside the sandbox' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l wait -d 'How long to wait for the file (e.g. 90s, 10m, 1h)' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l org -d 'With --create: the organisation [default: DEVIN_ORG_ID]' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l print-only -d 'Print the task and the Slack line, then exit 0; no provider is contacted'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l create -d 'Create the proof session yourself through Devin\'s v3 API on the outpost, follow it, read the file back and end the session (DEVIN_API_KEY, DEVIN_ORG_ID). Unattended'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l keep-session -d 'With --create: leave the proof session running afterwards'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l sleep-cycle -d 'With --create: once the proof is read, suspend the session, wait for its sandbox to sleep, resume it, and read the proof again once it is served (the emulator only: Devin\'s v3 API cannot suspend a session)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from verify" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l prompt -d 'The task for Devin' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l outpost -d 'Outpost name or id to run on [default: OUTPOST_ID; none: the organisation default]' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l title -d 'The session\'s title in the Devin app [default: Devin names it from the prompt]' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l tag -d 'A tag (repeatable)' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l until -d 'Wait until the session is served or finished' -r -f -a "served\t'The session runs on a machine'
finished\t'Devin reports the task finished, or the session exits'"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l wait -d 'How long --until waits (e.g. 90s, 10m)' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l org -d 'The organisation to create it in (`org-…`) [default: DEVIN_ORG_ID]' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l keep-session -d 'With --until: on SIGINT/SIGTERM leave the session running (it is ended otherwise)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -l provider -d 'Look for the session\'s sandbox on this provider' -r -f -a "daytona\t''
coreweave\t''
local\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -l org -d 'The organisation the session belongs to (`org-…`) [default: DEVIN_ORG_ID]' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -l org -d 'The organisation the session belongs to (`org-…`) [default: DEVIN_ORG_ID]' -r
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -l archive -d 'Archive it as well'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from end" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Prove a session runs in your sandbox: print a task with a fresh proof value, then wait for Devin to write it and read it back from that sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID)'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show a session: v3 status and detail, fleet queue row, sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "end" -d 'End (terminate) a session through the v3 API'
complete -c outposts -n "__fish_outposts_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -l timeout -d 'Longest any single check may take (e.g. 10s, 1m)' -r
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand cost" -l since -d 'Only time since this long ago (e.g. 24h, 7d); default: everything the ledger holds' -r
complete -c outposts -n "__fish_outposts_using_subcommand cost" -l by -d 'One row per session, outpost or UTC day' -r -f -a "session\t''
outpost\t''
day\t''"
complete -c outposts -n "__fish_outposts_using_subcommand cost" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand cost" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand cost" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand cost" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand cost" -l csv -d 'CSV (RFC 4180) on stdout instead of a table'
complete -c outposts -n "__fish_outposts_using_subcommand cost" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand cost" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand cost" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand cost" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand cost" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand cost" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand help-env" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand help-env" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand help-env" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand help-env" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand help-env" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand help-env" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand help-env" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand help-env" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand help-env" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand help-env" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand completions" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand completions" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand completions" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand completions" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand completions" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand completions" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand completions" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand completions" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand completions" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand completions" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand generate" -l dir -d 'Repository root to write `completions/`, `man/`, `deploy/kubernetes/` and `docs/` into' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand generate" -l color -d 'When to use colour. NO_COLOR in the environment means never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c outposts -n "__fish_outposts_using_subcommand generate" -l env-file -d 'Read settings from this .env file instead of ./.env' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand generate" -l config -d 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)' -r -F
complete -c outposts -n "__fish_outposts_using_subcommand generate" -l log-format -d 'Format of log lines on stderr' -r -f -a "text\t''
json\t''"
complete -c outposts -n "__fish_outposts_using_subcommand generate" -l check -d 'Only compare; exit 1 listing the files that differ'
complete -c outposts -n "__fish_outposts_using_subcommand generate" -l json -d 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr'
complete -c outposts -n "__fish_outposts_using_subcommand generate" -s q -l quiet -d 'Print only results and errors'
complete -c outposts -n "__fish_outposts_using_subcommand generate" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides'
complete -c outposts -n "__fish_outposts_using_subcommand generate" -s y -l yes -d 'Answer yes to confirmations (required for destructive commands without a terminal)'
complete -c outposts -n "__fish_outposts_using_subcommand generate" -s h -l help -d 'Print help'
complete -c outposts -n "__fish_outposts_using_subcommand generate" -s V -l version -d 'Print version'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "demo" -d 'Run the whole job on the built-in emulator, narrated: claim, serve, sleep, wake, terminate'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "connect" -d 'Connect an outpost from the browser and store its token (PKCE partner flow)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "auth" -d 'Show or forget the stored outpost token'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "outpost" -d 'Create, list, inspect and delete outposts (orchestrator-scope token)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "queue" -d 'Read the outpost\'s session queue'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "orchestrator" -d 'Serve the outpost: one sandbox per Devin session (long-running), and inspect it'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "emulator" -d 'Serve the Devin, Daytona and CoreWeave APIs on loopback, and drive its sessions'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "worker" -d 'Fixed workers: sandboxes running `devin worker start --outpost=…` (CoreWeave model)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "snapshot" -d 'Build, name, list and delete the Daytona snapshot sandboxes boot from'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "session" -d 'Prove a Devin session runs on your compute (proof file written by Devin, read back)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "doctor" -d 'Check settings, tokens, outpost, snapshot, port, state dir and clock; print the fixes'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "cost" -d 'What sandboxes cost: per session, outpost or day, from the orchestrator\'s cost ledger'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "help-env" -d 'Print every environment variable `outposts` reads, with its default and meaning'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "completions" -d 'Print a shell completion script'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "generate" -d 'Write completions/ and man/ from the CLI definition (for maintainers)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and not __fish_seen_subcommand_from demo connect auth outpost queue orchestrator emulator worker snapshot session doctor cost help-env completions generate help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'Which token is in force (environment, .env, keyring) and whether the API accepts it'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "set-key" -d 'Store DEVIN_API_KEY (the v3 API key), read from stdin or a hidden prompt, in .env or the OS keyring'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "logout" -d 'Forget the stored token and v3 API key: their OS keyring entries and their .env lines (DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from outpost" -f -a "create" -d 'Create an outpost and print its OUTPOST_ID (orchestrator scope)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from outpost" -f -a "list" -d 'List every outpost of the account (all pages)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from outpost" -f -a "get" -d 'Show one outpost with its queue depth and active claims'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from outpost" -f -a "delete" -d 'Delete an outpost (orchestrator scope); an outpost already gone is not an error'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from outpost" -f -a "default" -d 'Show or change the organisation\'s default platform (DEVIN_API_KEY, DEVIN_ORG_ID)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from queue" -f -a "list" -d 'List every queued session of the outpost (all pages)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from queue" -f -a "watch" -d 'Follow queue changes as they happen (reconnects by itself; Ctrl-C to stop)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from orchestrator" -f -a "run" -d 'Serve the outpost\'s queue: one sandbox per session, until SIGTERM'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from orchestrator" -f -a "status" -d 'Show this instance\'s identity, cursor age and the sessions it holds'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from orchestrator" -f -a "failures" -d 'Show the failure records: why a session\'s sandbox failed, with its last log lines'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from emulator" -f -a "start" -d 'Serve the emulated APIs on loopback until SIGINT/SIGTERM'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from emulator" -f -a "env" -d 'Print `export` lines that point every client at a running emulator'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from emulator" -f -a "session" -d 'Drive the emulated Devin sessions: enqueue, suspend, resume, terminate, give tasks'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from emulator" -f -a "status" -d 'Outposts and sessions of a running emulator'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from worker" -f -a "launch" -d 'Create sandboxes that run `devin worker start --outpost=…` and wait until they serve'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from worker" -f -a "list" -d 'List worker sandboxes'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from worker" -f -a "status" -d 'Show a worker\'s sandbox, containers, restarts and health'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from worker" -f -a "logs" -d 'Print a worker\'s log'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from worker" -f -a "exec" -d 'Run a command in a worker\'s sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from worker" -f -a "stop" -d 'Stop a worker and its sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "build" -d 'Build the snapshot on Daytona, or reuse it when it already exists'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "name" -d 'Print the snapshot name (SNAPSHOT_NAME, or derived from the image definition). No network'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "dockerfile" -d 'Print the embedded default Dockerfile (or, with --platform windows, the provisioner)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "list" -d 'List the organization\'s snapshots'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "delete" -d 'Delete a snapshot by name (asks first on a terminal; --yes otherwise)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "warm-pool" -d 'Show, set or delete the Daytona warm pool of the snapshot in use'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "verify" -d 'Prove a session runs in your sandbox: print a task with a fresh proof value, then wait for Devin to write it and read it back from that sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "create" -d 'Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID)'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "show" -d 'Show a session: v3 status and detail, fleet queue row, sandbox'
complete -c outposts -n "__fish_outposts_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "end" -d 'End (terminate) a session through the v3 API'
