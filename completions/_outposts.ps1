
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'outposts' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'outposts'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'outposts' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Run the whole job on the built-in emulator, narrated: claim, serve, sleep, wake, terminate')
            [CompletionResult]::new('connect', 'connect', [CompletionResultType]::ParameterValue, 'Connect an outpost from the browser and store its token (PKCE partner flow)')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Show or forget the stored outpost token')
            [CompletionResult]::new('outpost', 'outpost', [CompletionResultType]::ParameterValue, 'Create, list, inspect and delete outposts (orchestrator-scope token)')
            [CompletionResult]::new('queue', 'queue', [CompletionResultType]::ParameterValue, 'Read the outpost''s session queue')
            [CompletionResult]::new('orchestrator', 'orchestrator', [CompletionResultType]::ParameterValue, 'Serve the outpost: one sandbox per Devin session (long-running), and inspect it')
            [CompletionResult]::new('emulator', 'emulator', [CompletionResultType]::ParameterValue, 'Serve the Devin, Daytona and CoreWeave APIs on loopback, and drive its sessions')
            [CompletionResult]::new('worker', 'worker', [CompletionResultType]::ParameterValue, 'Fixed workers: sandboxes running `devin worker start --outpost=…` (CoreWeave model)')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Build, name, list and delete the Daytona snapshot sandboxes boot from')
            [CompletionResult]::new('session', 'session', [CompletionResultType]::ParameterValue, 'Prove a Devin session runs on your compute (proof file written by Devin, read back)')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check settings, tokens, outpost, snapshot, port, state dir and clock; print the fixes')
            [CompletionResult]::new('cost', 'cost', [CompletionResultType]::ParameterValue, 'What sandboxes cost: per session, outpost or day, from the orchestrator''s cost ledger')
            [CompletionResult]::new('help-env', 'help-env', [CompletionResultType]::ParameterValue, 'Print every environment variable `outposts` reads, with its default and meaning')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write completions/ and man/ from the CLI definition (for maintainers)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;demo' {
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Keep the emulator''s data and the sandboxes in this directory instead of a temporary one')
            [CompletionResult]::new('--step-timeout', '--step-timeout', [CompletionResultType]::ParameterName, 'Longest wait for each step')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;connect' {
            [CompletionResult]::new('--platform', '--platform', [CompletionResultType]::ParameterName, 'Platform of the new outpost (editable on the connect page)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Name of the new outpost [default: daytona-<platform>] (editable on the connect page)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'Where to keep the token: .env (mode 0600) or the OS keyring (falls back to .env when no keyring is available)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for the browser after this long (e.g. 90s, 10m)')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Local callback port [default: OUTPOSTS_CONNECT_PORT, else 8765]. Devin redirects only to its allowlisted callback (port 8765); 0 picks a free port (emulator only)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace DEVIN_OUTPOSTS_TOKEN, DEVIN_API_URL and OUTPOST_ID in a .env that already holds an outpost (every other line is kept)')
            [CompletionResult]::new('--no-browser', '--no-browser', [CompletionResultType]::ParameterName, 'Only print the URL; do not start a browser')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;auth' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Which token is in force (environment, .env, keyring) and whether the API accepts it')
            [CompletionResult]::new('set-key', 'set-key', [CompletionResultType]::ParameterValue, 'Store DEVIN_API_KEY (the v3 API key), read from stdin or a hidden prompt, in .env or the OS keyring')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the stored token and v3 API key: their OS keyring entries and their .env lines (DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;auth;status' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Do not call the API to check the token')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;auth;set-key' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'Where to keep DEVIN_API_KEY: `env` writes only its line to .env (mode 0600); `keyring` keeps it in the OS keyring (falls back to .env when no keyring is available). Nothing else is written')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Store the key without asking the API whether it accepts it')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;auth;logout' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;auth;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Which token is in force (environment, .env, keyring) and whether the API accepts it')
            [CompletionResult]::new('set-key', 'set-key', [CompletionResultType]::ParameterValue, 'Store DEVIN_API_KEY (the v3 API key), read from stdin or a hidden prompt, in .env or the OS keyring')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the stored token and v3 API key: their OS keyring entries and their .env lines (DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;auth;help;status' {
            break
        }
        'outposts;auth;help;set-key' {
            break
        }
        'outposts;auth;help;logout' {
            break
        }
        'outposts;auth;help;help' {
            break
        }
        'outposts;outpost' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create an outpost and print its OUTPOST_ID (orchestrator scope)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every outpost of the account (all pages)')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Show one outpost with its queue depth and active claims')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete an outpost (orchestrator scope); an outpost already gone is not an error')
            [CompletionResult]::new('default', 'default', [CompletionResultType]::ParameterValue, 'Show or change the organisation''s default platform (DEVIN_API_KEY, DEVIN_ORG_ID)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;outpost;create' {
            [CompletionResult]::new('--platform', '--platform', [CompletionResultType]::ParameterName, 'Platform of its machines')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'Free-text description')
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'Read the token from this environment variable instead of the default one')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--write-env', '--write-env', [CompletionResultType]::ParameterName, 'Also write OUTPOST_ID to .env (or --env-file), replacing a previous value')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;outpost;list' {
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'Read the token from this environment variable instead of the default one')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;outpost;get' {
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'Read the token from this environment variable instead of the default one')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;outpost;delete' {
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'Read the token from this environment variable instead of the default one')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;outpost;default' {
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organisation id [default: DEVIN_ORG_ID]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Make a shared outpost (name or id) or a hosted label the organisation''s default')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove the organisation''s default platform')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;outpost;default;set' {
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organisation id [default: DEVIN_ORG_ID]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;outpost;default;clear' {
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organisation id [default: DEVIN_ORG_ID]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;outpost;default;help' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Make a shared outpost (name or id) or a hosted label the organisation''s default')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove the organisation''s default platform')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;outpost;default;help;set' {
            break
        }
        'outposts;outpost;default;help;clear' {
            break
        }
        'outposts;outpost;default;help;help' {
            break
        }
        'outposts;outpost;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create an outpost and print its OUTPOST_ID (orchestrator scope)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every outpost of the account (all pages)')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Show one outpost with its queue depth and active claims')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete an outpost (orchestrator scope); an outpost already gone is not an error')
            [CompletionResult]::new('default', 'default', [CompletionResultType]::ParameterValue, 'Show or change the organisation''s default platform (DEVIN_API_KEY, DEVIN_ORG_ID)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;outpost;help;create' {
            break
        }
        'outposts;outpost;help;list' {
            break
        }
        'outposts;outpost;help;get' {
            break
        }
        'outposts;outpost;help;delete' {
            break
        }
        'outposts;outpost;help;default' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Make a shared outpost (name or id) or a hosted label the organisation''s default')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove the organisation''s default platform')
            break
        }
        'outposts;outpost;help;default;set' {
            break
        }
        'outposts;outpost;help;default;clear' {
            break
        }
        'outposts;outpost;help;help' {
            break
        }
        'outposts;queue' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every queued session of the outpost (all pages)')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow queue changes as they happen (reconnects by itself; Ctrl-C to stop)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;queue;list' {
            [CompletionResult]::new('--phase', '--phase', [CompletionResultType]::ParameterName, 'Only entries in this phase')
            [CompletionResult]::new('--acceptor', '--acceptor', [CompletionResultType]::ParameterName, 'Only entries claimed by this acceptor id')
            [CompletionResult]::new('--outpost', '--outpost', [CompletionResultType]::ParameterName, 'Outpost (name or id) whose queue to read [default: OUTPOST_ID; every outpost when unset]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;queue;watch' {
            [CompletionResult]::new('--outpost', '--outpost', [CompletionResultType]::ParameterName, 'Outpost (name or id) to watch [default: OUTPOST_ID; every outpost when unset]')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Resume after this cursor (from a previous event or `queue list`)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Exit 0 after this many events')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--from-start', '--from-start', [CompletionResultType]::ParameterName, 'Replay the whole queue first instead of starting from now')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;queue;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every queued session of the outpost (all pages)')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow queue changes as they happen (reconnects by itself; Ctrl-C to stop)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;queue;help;list' {
            break
        }
        'outposts;queue;help;watch' {
            break
        }
        'outposts;queue;help;help' {
            break
        }
        'outposts;orchestrator' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Serve the outpost''s queue: one sandbox per session, until SIGTERM')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show this instance''s identity, cursor age and the sessions it holds')
            [CompletionResult]::new('failures', 'failures', [CompletionResultType]::ParameterValue, 'Show the failure records: why a session''s sandbox failed, with its last log lines')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;orchestrator;run' {
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Where sessions run [default: OUTPOSTS_PROVIDER or daytona]')
            [CompletionResult]::new('--launch', '--launch', [CompletionResultType]::ParameterName, 'How the session is served inside the sandbox')
            [CompletionResult]::new('--outpost', '--outpost', [CompletionResultType]::ParameterName, 'Outpost name or id [default: OUTPOST_ID]')
            [CompletionResult]::new('--max-concurrent-sessions', '--max-concurrent-sessions', [CompletionResultType]::ParameterName, 'Most sessions held at once [default: MAX_CONCURRENT_SESSIONS or 5]')
            [CompletionResult]::new('--snapshot', '--snapshot', [CompletionResultType]::ParameterName, 'Snapshot new sandboxes start from (Daytona) [default: SNAPSHOT_NAME or the content-hashed default]')
            [CompletionResult]::new('--windows-snapshot', '--windows-snapshot', [CompletionResultType]::ParameterName, 'Snapshot Windows sessions'' sandboxes start from (Daytona) [default: the content-hashed Windows snapshot `snapshot build --platform windows` makes]')
            [CompletionResult]::new('--image', '--image', [CompletionResultType]::ParameterName, 'Image new sandboxes start from, instead of a snapshot')
            [CompletionResult]::new('--metrics-addr', '--metrics-addr', [CompletionResultType]::ParameterName, 'Serve Prometheus `/metrics` and `/healthz` here (off by default)')
            [CompletionResult]::new('--janitor-grace', '--janitor-grace', [CompletionResultType]::ParameterName, 'How long a new sandbox is safe from the janitor (e.g. 90s, 5m; bare numbers are seconds)')
            [CompletionResult]::new('--ready-timeout', '--ready-timeout', [CompletionResultType]::ParameterName, 'Longest wait for a sandbox to start (e.g. 90s, 5m; bare numbers are seconds)')
            [CompletionResult]::new('--adopt-from', '--adopt-from', [CompletionResultType]::ParameterName, 'Take over the sessions this STATE_DIR holds on another provider: their sandboxes there are stopped first (disks kept), then they are served here. Needed once when the provider (or its endpoint) changes while sessions are held; without it such a start exits 2')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;orchestrator;status' {
            [CompletionResult]::new('--outpost', '--outpost', [CompletionResultType]::ParameterName, 'Outpost name or id [default: OUTPOST_ID]')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Seconds between refreshes of --watch')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Keep watching: a live table on a terminal, NDJSON snapshots otherwise (or with --json)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;orchestrator;failures' {
            [CompletionResult]::new('--outpost', '--outpost', [CompletionResultType]::ParameterName, 'Outpost name or id [default: OUTPOST_ID]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;orchestrator;help' {
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Serve the outpost''s queue: one sandbox per session, until SIGTERM')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show this instance''s identity, cursor age and the sessions it holds')
            [CompletionResult]::new('failures', 'failures', [CompletionResultType]::ParameterValue, 'Show the failure records: why a session''s sandbox failed, with its last log lines')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;orchestrator;help;run' {
            break
        }
        'outposts;orchestrator;help;status' {
            break
        }
        'outposts;orchestrator;help;failures' {
            break
        }
        'outposts;orchestrator;help;help' {
            break
        }
        'outposts;emulator' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Serve the emulated APIs on loopback until SIGINT/SIGTERM')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Print `export` lines that point every client at a running emulator')
            [CompletionResult]::new('session', 'session', [CompletionResultType]::ParameterValue, 'Drive the emulated Devin sessions: enqueue, suspend, resume, terminate, give tasks')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Outposts and sessions of a running emulator')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;emulator;start' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port to listen on (0 picks a free one) [default: OUTPOSTS_EMULATOR_PORT or 8790]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Keep sandboxes and the request log here (default: a temporary directory removed at exit)')
            [CompletionResult]::new('--state', '--state', [CompletionResultType]::ParameterName, 'Load the Devin queue from this file at start and save it at exit')
            [CompletionResult]::new('--faults', '--faults', [CompletionResultType]::ParameterName, 'Fault script: inline JSON or a JSON file (see `POST /_emulator/faults`)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for every random choice the emulator makes')
            [CompletionResult]::new('--claim-ttl', '--claim-ttl', [CompletionResultType]::ParameterName, 'Claim lifetime')
            [CompletionResult]::new('--max-stream', '--max-stream', [CompletionResultType]::ParameterName, 'Longest a watch stream stays open')
            [CompletionResult]::new('--keepalive', '--keepalive', [CompletionResultType]::ParameterName, 'Interval of keepalive comments on idle watch streams')
            [CompletionResult]::new('--sweep-delay', '--sweep-delay', [CompletionResultType]::ParameterName, 'How long a released suspended/terminated session''s row lingers before it is swept')
            [CompletionResult]::new('--remote-form', '--remote-form', [CompletionResultType]::ParameterName, 'What `devin-remote` is for Linux: `binary` (a real executable, the running process is the file) or `script` (a POSIX shell script that behaves the same; its process is the shell)')
            [CompletionResult]::new('--windows-daemon', '--windows-daemon', [CompletionResultType]::ParameterName, 'Which Windows daemon Windows sandboxes follow: `legacy` (`cmd.exe /C`, an exec''s envs dropped, nothing killed on a timeout) or `newer` (`cmd.exe /S /C "…"`, envs applied, the process tree killed on a timeout)')
            [CompletionResult]::new('--outpost-get-route', '--outpost-get-route', [CompletionResultType]::ParameterName, 'How `GET /opbeta/outposts/{id}` answers: `served`, or absent as in Cognition''s model of the server (`404` unknown path, `405` method not allowed)')
            [CompletionResult]::new('--gateway-url', '--gateway-url', [CompletionResultType]::ParameterName, 'The gateway URL claim answers carry (default: the emulator''s own). A URL the fake remote cannot use (e.g. `wss://…`) makes it exit 2 at once, with the reason in its log')
            [CompletionResult]::new('--page-size', '--page-size', [CompletionResultType]::ParameterName, 'Most rows one queue list page serves, whatever `first` asks (pages overlap by one row)')
            [CompletionResult]::new('--watch-replay', '--watch-replay', [CompletionResultType]::ParameterName, 'How far before its cursor a watch replays rows (at-least-once delivery): it sends every row changed at or after the cursor minus this; with 0s only the row at the cursor itself is sent again')
            [CompletionResult]::new('--daytona-create-delay', '--daytona-create-delay', [CompletionResultType]::ParameterName, 'How long an emulated Daytona sandbox takes from `creating` to `started` (a real one takes seconds; warm capacity is worth measuring only when it does here too) [default: 200ms]. Also `PUT /_emulator/daytona/settings` `create_ms`')
            [CompletionResult]::new('--daytona-start-delay', '--daytona-start-delay', [CompletionResultType]::ParameterName, 'How long an emulated Daytona sandbox takes from `starting` to `started` [default: 150ms]')
            [CompletionResult]::new('--sandboxes', '--sandboxes', [CompletionResultType]::ParameterName, 'What a Daytona or CoreWeave sandbox is: `process` (a real local sandbox running the fake remote) or `simulated` (a record only; the remote is simulated inside the emulator, so tens of thousands of sessions fit on one machine)')
            [CompletionResult]::new('--sim-delay', '--sim-delay', [CompletionResultType]::ParameterName, 'With `--sandboxes simulated`: how long each exec and each create, start and stop takes')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;emulator;env' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;emulator;session' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Enqueue new sessions (what Devin does when a user starts one on the outpost)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every session the emulator knows')
            [CompletionResult]::new('suspend', 'suspend', [CompletionResultType]::ParameterValue, 'Put a session to sleep: its remote exits; the row leaves the queue once released')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Wake a suspended session: it comes back as a pending `kind=resume` entry')
            [CompletionResult]::new('terminate', 'terminate', [CompletionResultType]::ParameterValue, 'End a session for good')
            [CompletionResult]::new('task', 'task', [CompletionResultType]::ParameterValue, 'Give a session''s remote a task (proof-file text or `sh: <command>`)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;emulator;session;new' {
            [CompletionResult]::new('--outpost', '--outpost', [CompletionResultType]::ParameterName, 'Outpost id or name [default: OUTPOST_ID, else the emulator''s first outpost]')
            [CompletionResult]::new('--platform', '--platform', [CompletionResultType]::ParameterName, 'linux, windows or macos')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'new or resume')
            [CompletionResult]::new('--sha', '--sha', [CompletionResultType]::ParameterName, 'Pin `remote_binary_sha` (7–64 hex digits) [default: the published build `latest_*` points at, like a real session]; `none` leaves the pin out (clients then fetch latest)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Initial session_status: pending, running, suspended or terminated')
            [CompletionResult]::new('--task', '--task', [CompletionResultType]::ParameterName, 'A task for the session''s remote')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'How many sessions (1–1000)')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Use this session id instead of a generated `devin-…` one')
            [CompletionResult]::new('--network-policy', '--network-policy', [CompletionResultType]::ParameterName, 'The entry''s `spec.network_policy`, as JSON: `{"enabled": bool, "allow": [{"hostname": glob} | {"ipv4": CIDR} | {"ipv6": CIDR}]}` (sent as given, so malformed ones can be tried too) [default: none]')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'Enqueue one session at a time as a Poisson stream of this rate (`1/s`, `30/m`, `120/h`) for `--for`, printing each id as it is enqueued')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'How long `--rate` keeps enqueuing (e.g. 5m)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of `--rate`''s random gaps (the same seed, the same stream)')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;emulator;session;list' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;emulator;session;suspend' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;emulator;session;resume' {
            [CompletionResult]::new('--network-policy', '--network-policy', [CompletionResultType]::ParameterName, 'The woken entry''s `spec.network_policy`, as JSON (`null`: none) [default: as before]')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;emulator;session;terminate' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;emulator;session;task' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;emulator;session;help' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Enqueue new sessions (what Devin does when a user starts one on the outpost)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every session the emulator knows')
            [CompletionResult]::new('suspend', 'suspend', [CompletionResultType]::ParameterValue, 'Put a session to sleep: its remote exits; the row leaves the queue once released')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Wake a suspended session: it comes back as a pending `kind=resume` entry')
            [CompletionResult]::new('terminate', 'terminate', [CompletionResultType]::ParameterValue, 'End a session for good')
            [CompletionResult]::new('task', 'task', [CompletionResultType]::ParameterValue, 'Give a session''s remote a task (proof-file text or `sh: <command>`)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;emulator;session;help;new' {
            break
        }
        'outposts;emulator;session;help;list' {
            break
        }
        'outposts;emulator;session;help;suspend' {
            break
        }
        'outposts;emulator;session;help;resume' {
            break
        }
        'outposts;emulator;session;help;terminate' {
            break
        }
        'outposts;emulator;session;help;task' {
            break
        }
        'outposts;emulator;session;help;help' {
            break
        }
        'outposts;emulator;status' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;emulator;help' {
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Serve the emulated APIs on loopback until SIGINT/SIGTERM')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Print `export` lines that point every client at a running emulator')
            [CompletionResult]::new('session', 'session', [CompletionResultType]::ParameterValue, 'Drive the emulated Devin sessions: enqueue, suspend, resume, terminate, give tasks')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Outposts and sessions of a running emulator')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;emulator;help;start' {
            break
        }
        'outposts;emulator;help;env' {
            break
        }
        'outposts;emulator;help;session' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Enqueue new sessions (what Devin does when a user starts one on the outpost)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every session the emulator knows')
            [CompletionResult]::new('suspend', 'suspend', [CompletionResultType]::ParameterValue, 'Put a session to sleep: its remote exits; the row leaves the queue once released')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Wake a suspended session: it comes back as a pending `kind=resume` entry')
            [CompletionResult]::new('terminate', 'terminate', [CompletionResultType]::ParameterValue, 'End a session for good')
            [CompletionResult]::new('task', 'task', [CompletionResultType]::ParameterValue, 'Give a session''s remote a task (proof-file text or `sh: <command>`)')
            break
        }
        'outposts;emulator;help;session;new' {
            break
        }
        'outposts;emulator;help;session;list' {
            break
        }
        'outposts;emulator;help;session;suspend' {
            break
        }
        'outposts;emulator;help;session;resume' {
            break
        }
        'outposts;emulator;help;session;terminate' {
            break
        }
        'outposts;emulator;help;session;task' {
            break
        }
        'outposts;emulator;help;status' {
            break
        }
        'outposts;emulator;help;help' {
            break
        }
        'outposts;worker' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('launch', 'launch', [CompletionResultType]::ParameterValue, 'Create sandboxes that run `devin worker start --outpost=…` and wait until they serve')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List worker sandboxes')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show a worker''s sandbox, containers, restarts and health')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Print a worker''s log')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command in a worker''s sandbox')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop a worker and its sandbox')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;worker;launch' {
            [CompletionResult]::new('--outpost', '--outpost', [CompletionResultType]::ParameterName, 'Outpost (name or id) the workers serve [default: OUTPOST_ID]')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'How many workers (one sandbox each)')
            [CompletionResult]::new('--image', '--image', [CompletionResultType]::ParameterName, 'Container image [default: public.ecr.aws/e0h8a4b6/devin-cli:stable]')
            [CompletionResult]::new('--cpu', '--cpu', [CompletionResultType]::ParameterName, 'CPU cores per worker (CoreWeave, Daytona)')
            [CompletionResult]::new('--memory', '--memory', [CompletionResultType]::ParameterName, 'Memory per worker, e.g. 4Gi or 512Mi (CoreWeave, Daytona)')
            [CompletionResult]::new('--gpu', '--gpu', [CompletionResultType]::ParameterName, 'GPUs per worker: COUNT or COUNT:TYPE (e.g. 1:H100)')
            [CompletionResult]::new('--max-lifetime', '--max-lifetime', [CompletionResultType]::ParameterName, 'Hard lifetime cap of each sandbox [default: 8h on CoreWeave; none elsewhere]')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'Take the outpost token from this provider secret-store entry (mapped to DEVIN_OUTPOSTS_TOKEN) instead of DEVIN_OUTPOSTS_TOKEN')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Label the sandboxes: NAME or KEY=VALUE (repeatable)')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'Extra environment of the worker (repeatable; not for secrets)')
            [CompletionResult]::new('--wait-timeout', '--wait-timeout', [CompletionResultType]::ParameterName, 'Longest wait for each worker to reach the queue (e.g. 90s, 3m; bare numbers are seconds)')
            [CompletionResult]::new('--restore', '--restore', [CompletionResultType]::ParameterName, 'Start the worker''s /workspace from this file-system snapshot (the one `worker stop` printed; CoreWeave only: elsewhere a stopped worker keeps its disk)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--no-wait', '--no-wait', [CompletionResultType]::ParameterName, 'Return once the sandboxes exist, without waiting for the workers')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;worker;list' {
            [CompletionResult]::new('--outpost', '--outpost', [CompletionResultType]::ParameterName, 'Only workers of this outpost (its name or id)')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;worker;status' {
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;worker;logs' {
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]')
            [CompletionResult]::new('--tail', '--tail', [CompletionResultType]::ParameterName, 'Only the last N lines')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Keep printing new lines until Ctrl-C (or the worker''s sandbox ends)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing new lines until Ctrl-C (or the worker''s sandbox ends)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;worker;exec' {
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest the command may run (e.g. 90s, 5m; bare numbers are seconds)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;worker;stop' {
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands: the worker''s own, found by its id]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--no-snapshot', '--no-snapshot', [CompletionResultType]::ParameterName, 'Do not try to snapshot the workspace first')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;worker;help' {
            [CompletionResult]::new('launch', 'launch', [CompletionResultType]::ParameterValue, 'Create sandboxes that run `devin worker start --outpost=…` and wait until they serve')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List worker sandboxes')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show a worker''s sandbox, containers, restarts and health')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Print a worker''s log')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command in a worker''s sandbox')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop a worker and its sandbox')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;worker;help;launch' {
            break
        }
        'outposts;worker;help;list' {
            break
        }
        'outposts;worker;help;status' {
            break
        }
        'outposts;worker;help;logs' {
            break
        }
        'outposts;worker;help;exec' {
            break
        }
        'outposts;worker;help;stop' {
            break
        }
        'outposts;worker;help;help' {
            break
        }
        'outposts;snapshot' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('build', 'build', [CompletionResultType]::ParameterValue, 'Build the snapshot on Daytona, or reuse it when it already exists')
            [CompletionResult]::new('name', 'name', [CompletionResultType]::ParameterValue, 'Print the snapshot name (SNAPSHOT_NAME, or derived from the image definition). No network')
            [CompletionResult]::new('dockerfile', 'dockerfile', [CompletionResultType]::ParameterValue, 'Print the embedded default Dockerfile (or, with --platform windows, the provisioner)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the organization''s snapshots')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a snapshot by name (asks first on a terminal; --yes otherwise)')
            [CompletionResult]::new('warm-pool', 'warm-pool', [CompletionResultType]::ParameterValue, 'Show, set or delete the Daytona warm pool of the snapshot in use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;snapshot;build' {
            [CompletionResult]::new('--dockerfile', '--dockerfile', [CompletionResultType]::ParameterName, 'Dockerfile to build instead of the embedded default (Linux only)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Directory COPY/ADD sources would come from (default: the Dockerfile''s directory). Local sources are refused: build-context upload is not supported')
            [CompletionResult]::new('--platform', '--platform', [CompletionResultType]::ParameterName, 'Which image: Linux (Dockerfile) or Windows (provisioner script)')
            [CompletionResult]::new('--cpu', '--cpu', [CompletionResultType]::ParameterName, 'vCPUs of sandboxes created from the snapshot')
            [CompletionResult]::new('--memory', '--memory', [CompletionResultType]::ParameterName, 'Memory of sandboxes created from the snapshot, whole GiB (e.g. 16Gi, or 16)')
            [CompletionResult]::new('--disk', '--disk', [CompletionResultType]::ParameterName, 'Disk of sandboxes created from the snapshot, whole GiB (e.g. 20Gi, or 20)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Snapshot name (wins over SNAPSHOT_NAME and the derived name)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'Daytona region [default: DAYTONA_TARGET, else the organization''s default]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up following the build after this long (the build continues on Daytona)')
            [CompletionResult]::new('--remote-sha', '--remote-sha', [CompletionResultType]::ParameterName, 'The devin-remote build (git sha) to bake [default: the distribution''s latest]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--write-env', '--write-env', [CompletionResultType]::ParameterName, 'Record SNAPSHOT_NAME in the .env file (kept atomically; other lines untouched)')
            [CompletionResult]::new('--bake-remote', '--bake-remote', [CompletionResultType]::ParameterName, 'Bake the published devin-remote Linux builds (latest, or --remote-sha) into the image''s launch cache, verified by sha256 at build time: sessions on that build skip the download')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;snapshot;name' {
            [CompletionResult]::new('--dockerfile', '--dockerfile', [CompletionResultType]::ParameterName, 'Dockerfile to hash instead of the embedded default (Linux only)')
            [CompletionResult]::new('--platform', '--platform', [CompletionResultType]::ParameterName, 'Which image: Linux (Dockerfile) or Windows (provisioner script)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Use this name (wins over SNAPSHOT_NAME and the derived name)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;snapshot;dockerfile' {
            [CompletionResult]::new('--platform', '--platform', [CompletionResultType]::ParameterName, 'Which image: Linux (Dockerfile) or Windows (provisioner script)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;snapshot;list' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only snapshots whose name contains this')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;snapshot;delete' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;snapshot;warm-pool' {
            [CompletionResult]::new('--snapshot', '--snapshot', [CompletionResultType]::ParameterName, 'Snapshot whose pool this is [default: SNAPSHOT_NAME or the content-hashed default]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the pool (the default)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Keep N started sandboxes of the snapshot ready (creates the pool; 0 drains it)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete the pool and its waiting sandboxes')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;snapshot;warm-pool;show' {
            [CompletionResult]::new('--snapshot', '--snapshot', [CompletionResultType]::ParameterName, 'Snapshot whose pool this is [default: SNAPSHOT_NAME or the content-hashed default]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;snapshot;warm-pool;set' {
            [CompletionResult]::new('--snapshot', '--snapshot', [CompletionResultType]::ParameterName, 'Snapshot whose pool this is [default: SNAPSHOT_NAME or the content-hashed default]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;snapshot;warm-pool;delete' {
            [CompletionResult]::new('--snapshot', '--snapshot', [CompletionResultType]::ParameterName, 'Snapshot whose pool this is [default: SNAPSHOT_NAME or the content-hashed default]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;snapshot;warm-pool;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the pool (the default)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Keep N started sandboxes of the snapshot ready (creates the pool; 0 drains it)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete the pool and its waiting sandboxes')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;snapshot;warm-pool;help;show' {
            break
        }
        'outposts;snapshot;warm-pool;help;set' {
            break
        }
        'outposts;snapshot;warm-pool;help;delete' {
            break
        }
        'outposts;snapshot;warm-pool;help;help' {
            break
        }
        'outposts;snapshot;help' {
            [CompletionResult]::new('build', 'build', [CompletionResultType]::ParameterValue, 'Build the snapshot on Daytona, or reuse it when it already exists')
            [CompletionResult]::new('name', 'name', [CompletionResultType]::ParameterValue, 'Print the snapshot name (SNAPSHOT_NAME, or derived from the image definition). No network')
            [CompletionResult]::new('dockerfile', 'dockerfile', [CompletionResultType]::ParameterValue, 'Print the embedded default Dockerfile (or, with --platform windows, the provisioner)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the organization''s snapshots')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a snapshot by name (asks first on a terminal; --yes otherwise)')
            [CompletionResult]::new('warm-pool', 'warm-pool', [CompletionResultType]::ParameterValue, 'Show, set or delete the Daytona warm pool of the snapshot in use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;snapshot;help;build' {
            break
        }
        'outposts;snapshot;help;name' {
            break
        }
        'outposts;snapshot;help;dockerfile' {
            break
        }
        'outposts;snapshot;help;list' {
            break
        }
        'outposts;snapshot;help;delete' {
            break
        }
        'outposts;snapshot;help;warm-pool' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the pool (the default)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Keep N started sandboxes of the snapshot ready (creates the pool; 0 drains it)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete the pool and its waiting sandboxes')
            break
        }
        'outposts;snapshot;help;warm-pool;show' {
            break
        }
        'outposts;snapshot;help;warm-pool;set' {
            break
        }
        'outposts;snapshot;help;warm-pool;delete' {
            break
        }
        'outposts;snapshot;help;help' {
            break
        }
        'outposts;session' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Prove a session runs in your sandbox: print a task with a fresh proof value, then wait for Devin to write it and read it back from that sandbox')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a session: v3 status and detail, fleet queue row, sandbox')
            [CompletionResult]::new('end', 'end', [CompletionResultType]::ParameterValue, 'End (terminate) a session through the v3 API')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;session;verify' {
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'Sandbox id or name to read (a fixed worker''s, or any sandbox)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Devin session id; its sandbox is the orchestrator''s (`devin-<id>-<hash>`, labelled)')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Where the sandbox runs [default: OUTPOSTS_PROVIDER or daytona]')
            [CompletionResult]::new('--outpost', '--outpost', [CompletionResultType]::ParameterName, 'The outpost (name, or `outpost_env-…` id). With --create: the one the session is created on [default: OUTPOST_ID, else the organisation''s default platform]. Otherwise: the name for the Slack line [default: OUTPOST_ID''s name]')
            [CompletionResult]::new('--proof', '--proof', [CompletionResultType]::ParameterName, 'The value to expect [default: a fresh `outpost-proof-<12 hex>`]')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Absolute path of the proof file inside the sandbox')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'How long to wait for the file (e.g. 90s, 10m, 1h)')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'With --create: the organisation [default: DEVIN_ORG_ID]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--print-only', '--print-only', [CompletionResultType]::ParameterName, 'Print the task and the Slack line, then exit 0; no provider is contacted')
            [CompletionResult]::new('--create', '--create', [CompletionResultType]::ParameterName, 'Create the proof session yourself through Devin''s v3 API on the outpost, follow it, read the file back and end the session (DEVIN_API_KEY, DEVIN_ORG_ID). Unattended')
            [CompletionResult]::new('--keep-session', '--keep-session', [CompletionResultType]::ParameterName, 'With --create: leave the proof session running afterwards')
            [CompletionResult]::new('--sleep-cycle', '--sleep-cycle', [CompletionResultType]::ParameterName, 'With --create: once the proof is read, suspend the session, wait for its sandbox to sleep, resume it, and read the proof again once it is served (the emulator only: Devin''s v3 API cannot suspend a session)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;session;create' {
            [CompletionResult]::new('--prompt', '--prompt', [CompletionResultType]::ParameterName, 'The task for Devin')
            [CompletionResult]::new('--outpost', '--outpost', [CompletionResultType]::ParameterName, 'Outpost name or id to run on [default: OUTPOST_ID; none: the organisation default]')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'The session''s title in the Devin app [default: Devin names it from the prompt]')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'A tag (repeatable)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Wait until the session is served or finished')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'How long --until waits (e.g. 90s, 10m)')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'The organisation to create it in (`org-…`) [default: DEVIN_ORG_ID]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--keep-session', '--keep-session', [CompletionResultType]::ParameterName, 'With --until: on SIGINT/SIGTERM leave the session running (it is ended otherwise)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;session;show' {
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Look for the session''s sandbox on this provider')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'The organisation the session belongs to (`org-…`) [default: DEVIN_ORG_ID]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;session;end' {
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'The organisation the session belongs to (`org-…`) [default: DEVIN_ORG_ID]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Archive it as well')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;session;help' {
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Prove a session runs in your sandbox: print a task with a fresh proof value, then wait for Devin to write it and read it back from that sandbox')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a session: v3 status and detail, fleet queue row, sandbox')
            [CompletionResult]::new('end', 'end', [CompletionResultType]::ParameterValue, 'End (terminate) a session through the v3 API')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;session;help;verify' {
            break
        }
        'outposts;session;help;create' {
            break
        }
        'outposts;session;help;show' {
            break
        }
        'outposts;session;help;end' {
            break
        }
        'outposts;session;help;help' {
            break
        }
        'outposts;doctor' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest any single check may take (e.g. 10s, 1m)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;cost' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only time since this long ago (e.g. 24h, 7d); default: everything the ledger holds')
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'One row per session, outpost or UTC day')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--csv', '--csv', [CompletionResultType]::ParameterName, 'CSV (RFC 4180) on stdout instead of a table')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;help-env' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;generate' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Repository root to write `completions/`, `man/`, `deploy/kubernetes/` and `docs/` into')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. NO_COLOR in the environment means never')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read settings from this .env file instead of ./.env')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this outposts.toml instead of the default ($XDG_CONFIG_HOME/outposts/outposts.toml)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Format of log lines on stderr')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Only compare; exit 1 listing the files that differ')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (required for destructive commands without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'outposts;help' {
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Run the whole job on the built-in emulator, narrated: claim, serve, sleep, wake, terminate')
            [CompletionResult]::new('connect', 'connect', [CompletionResultType]::ParameterValue, 'Connect an outpost from the browser and store its token (PKCE partner flow)')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Show or forget the stored outpost token')
            [CompletionResult]::new('outpost', 'outpost', [CompletionResultType]::ParameterValue, 'Create, list, inspect and delete outposts (orchestrator-scope token)')
            [CompletionResult]::new('queue', 'queue', [CompletionResultType]::ParameterValue, 'Read the outpost''s session queue')
            [CompletionResult]::new('orchestrator', 'orchestrator', [CompletionResultType]::ParameterValue, 'Serve the outpost: one sandbox per Devin session (long-running), and inspect it')
            [CompletionResult]::new('emulator', 'emulator', [CompletionResultType]::ParameterValue, 'Serve the Devin, Daytona and CoreWeave APIs on loopback, and drive its sessions')
            [CompletionResult]::new('worker', 'worker', [CompletionResultType]::ParameterValue, 'Fixed workers: sandboxes running `devin worker start --outpost=…` (CoreWeave model)')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Build, name, list and delete the Daytona snapshot sandboxes boot from')
            [CompletionResult]::new('session', 'session', [CompletionResultType]::ParameterValue, 'Prove a Devin session runs on your compute (proof file written by Devin, read back)')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check settings, tokens, outpost, snapshot, port, state dir and clock; print the fixes')
            [CompletionResult]::new('cost', 'cost', [CompletionResultType]::ParameterValue, 'What sandboxes cost: per session, outpost or day, from the orchestrator''s cost ledger')
            [CompletionResult]::new('help-env', 'help-env', [CompletionResultType]::ParameterValue, 'Print every environment variable `outposts` reads, with its default and meaning')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write completions/ and man/ from the CLI definition (for maintainers)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'outposts;help;demo' {
            break
        }
        'outposts;help;connect' {
            break
        }
        'outposts;help;auth' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Which token is in force (environment, .env, keyring) and whether the API accepts it')
            [CompletionResult]::new('set-key', 'set-key', [CompletionResultType]::ParameterValue, 'Store DEVIN_API_KEY (the v3 API key), read from stdin or a hidden prompt, in .env or the OS keyring')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the stored token and v3 API key: their OS keyring entries and their .env lines (DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY)')
            break
        }
        'outposts;help;auth;status' {
            break
        }
        'outposts;help;auth;set-key' {
            break
        }
        'outposts;help;auth;logout' {
            break
        }
        'outposts;help;outpost' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create an outpost and print its OUTPOST_ID (orchestrator scope)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every outpost of the account (all pages)')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Show one outpost with its queue depth and active claims')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete an outpost (orchestrator scope); an outpost already gone is not an error')
            [CompletionResult]::new('default', 'default', [CompletionResultType]::ParameterValue, 'Show or change the organisation''s default platform (DEVIN_API_KEY, DEVIN_ORG_ID)')
            break
        }
        'outposts;help;outpost;create' {
            break
        }
        'outposts;help;outpost;list' {
            break
        }
        'outposts;help;outpost;get' {
            break
        }
        'outposts;help;outpost;delete' {
            break
        }
        'outposts;help;outpost;default' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Make a shared outpost (name or id) or a hosted label the organisation''s default')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove the organisation''s default platform')
            break
        }
        'outposts;help;outpost;default;set' {
            break
        }
        'outposts;help;outpost;default;clear' {
            break
        }
        'outposts;help;queue' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every queued session of the outpost (all pages)')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow queue changes as they happen (reconnects by itself; Ctrl-C to stop)')
            break
        }
        'outposts;help;queue;list' {
            break
        }
        'outposts;help;queue;watch' {
            break
        }
        'outposts;help;orchestrator' {
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Serve the outpost''s queue: one sandbox per session, until SIGTERM')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show this instance''s identity, cursor age and the sessions it holds')
            [CompletionResult]::new('failures', 'failures', [CompletionResultType]::ParameterValue, 'Show the failure records: why a session''s sandbox failed, with its last log lines')
            break
        }
        'outposts;help;orchestrator;run' {
            break
        }
        'outposts;help;orchestrator;status' {
            break
        }
        'outposts;help;orchestrator;failures' {
            break
        }
        'outposts;help;emulator' {
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Serve the emulated APIs on loopback until SIGINT/SIGTERM')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Print `export` lines that point every client at a running emulator')
            [CompletionResult]::new('session', 'session', [CompletionResultType]::ParameterValue, 'Drive the emulated Devin sessions: enqueue, suspend, resume, terminate, give tasks')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Outposts and sessions of a running emulator')
            break
        }
        'outposts;help;emulator;start' {
            break
        }
        'outposts;help;emulator;env' {
            break
        }
        'outposts;help;emulator;session' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Enqueue new sessions (what Devin does when a user starts one on the outpost)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every session the emulator knows')
            [CompletionResult]::new('suspend', 'suspend', [CompletionResultType]::ParameterValue, 'Put a session to sleep: its remote exits; the row leaves the queue once released')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Wake a suspended session: it comes back as a pending `kind=resume` entry')
            [CompletionResult]::new('terminate', 'terminate', [CompletionResultType]::ParameterValue, 'End a session for good')
            [CompletionResult]::new('task', 'task', [CompletionResultType]::ParameterValue, 'Give a session''s remote a task (proof-file text or `sh: <command>`)')
            break
        }
        'outposts;help;emulator;session;new' {
            break
        }
        'outposts;help;emulator;session;list' {
            break
        }
        'outposts;help;emulator;session;suspend' {
            break
        }
        'outposts;help;emulator;session;resume' {
            break
        }
        'outposts;help;emulator;session;terminate' {
            break
        }
        'outposts;help;emulator;session;task' {
            break
        }
        'outposts;help;emulator;status' {
            break
        }
        'outposts;help;worker' {
            [CompletionResult]::new('launch', 'launch', [CompletionResultType]::ParameterValue, 'Create sandboxes that run `devin worker start --outpost=…` and wait until they serve')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List worker sandboxes')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show a worker''s sandbox, containers, restarts and health')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Print a worker''s log')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command in a worker''s sandbox')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop a worker and its sandbox')
            break
        }
        'outposts;help;worker;launch' {
            break
        }
        'outposts;help;worker;list' {
            break
        }
        'outposts;help;worker;status' {
            break
        }
        'outposts;help;worker;logs' {
            break
        }
        'outposts;help;worker;exec' {
            break
        }
        'outposts;help;worker;stop' {
            break
        }
        'outposts;help;snapshot' {
            [CompletionResult]::new('build', 'build', [CompletionResultType]::ParameterValue, 'Build the snapshot on Daytona, or reuse it when it already exists')
            [CompletionResult]::new('name', 'name', [CompletionResultType]::ParameterValue, 'Print the snapshot name (SNAPSHOT_NAME, or derived from the image definition). No network')
            [CompletionResult]::new('dockerfile', 'dockerfile', [CompletionResultType]::ParameterValue, 'Print the embedded default Dockerfile (or, with --platform windows, the provisioner)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the organization''s snapshots')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a snapshot by name (asks first on a terminal; --yes otherwise)')
            [CompletionResult]::new('warm-pool', 'warm-pool', [CompletionResultType]::ParameterValue, 'Show, set or delete the Daytona warm pool of the snapshot in use')
            break
        }
        'outposts;help;snapshot;build' {
            break
        }
        'outposts;help;snapshot;name' {
            break
        }
        'outposts;help;snapshot;dockerfile' {
            break
        }
        'outposts;help;snapshot;list' {
            break
        }
        'outposts;help;snapshot;delete' {
            break
        }
        'outposts;help;snapshot;warm-pool' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the pool (the default)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Keep N started sandboxes of the snapshot ready (creates the pool; 0 drains it)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete the pool and its waiting sandboxes')
            break
        }
        'outposts;help;snapshot;warm-pool;show' {
            break
        }
        'outposts;help;snapshot;warm-pool;set' {
            break
        }
        'outposts;help;snapshot;warm-pool;delete' {
            break
        }
        'outposts;help;session' {
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Prove a session runs in your sandbox: print a task with a fresh proof value, then wait for Devin to write it and read it back from that sandbox')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a session: v3 status and detail, fleet queue row, sandbox')
            [CompletionResult]::new('end', 'end', [CompletionResultType]::ParameterValue, 'End (terminate) a session through the v3 API')
            break
        }
        'outposts;help;session;verify' {
            break
        }
        'outposts;help;session;create' {
            break
        }
        'outposts;help;session;show' {
            break
        }
        'outposts;help;session;end' {
            break
        }
        'outposts;help;doctor' {
            break
        }
        'outposts;help;cost' {
            break
        }
        'outposts;help;help-env' {
            break
        }
        'outposts;help;completions' {
            break
        }
        'outposts;help;generate' {
            break
        }
        'outposts;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
