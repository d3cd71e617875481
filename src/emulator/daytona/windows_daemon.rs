//! Which Windows daemon the emulator's Windows sandboxes model. Daytona runs two generations of
//! it (`apps/daemon-win`, and the newer Windows daemon branch); a client must work with both, so
//! the suite runs its Windows tests against each (`outposts emulator start --windows-daemon`).
//!
//! | behaviour                 | `legacy`                          | `newer`                           |
//! |---------------------------|-----------------------------------|-----------------------------------|
//! | command line              | `cmd.exe /C <command>`            | `C:\Windows\system32\cmd.exe /S /C "<command>"` |
//! | longest `command`         | 8,191                             | 8,191 minus the 36-character wrapper |
//! | `envs` of an exec         | dropped                           | applied                           |
//! | a command past its timeout| answered 408, keeps running       | answered 408, its process tree killed |

/// The Windows daemon generation a Windows sandbox follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum WindowsDaemon {
    /// `apps/daemon-win`: `cmd.exe /C`, `envs` dropped, nothing killed on a timeout.
    #[default]
    Legacy,
    /// The newer daemon: `cmd.exe /S /C "…"`, `envs` applied, the tree killed on a timeout.
    Newer,
}

/// cmd.exe's longest command line.
pub const CMD_LIMIT: usize = 8191;

/// The newer daemon's wrapper around a command, without the command.
pub const NEWER_WRAPPER: (&str, &str) = ("C:\\Windows\\system32\\cmd.exe /S /C \"", "\"");

impl WindowsDaemon {
    /// The longest `command` this daemon runs: cmd.exe counts the whole line it is given.
    pub fn command_limit(self) -> usize {
        match self {
            WindowsDaemon::Legacy => CMD_LIMIT,
            WindowsDaemon::Newer => CMD_LIMIT - NEWER_WRAPPER.0.len() - NEWER_WRAPPER.1.len(),
        }
    }

    /// Does an exec's `envs` reach the command?
    pub fn applies_envs(self) -> bool {
        self == WindowsDaemon::Newer
    }

    /// Is a command's process tree killed when its timeout passes?
    pub fn kills_tree_on_timeout(self) -> bool {
        self == WindowsDaemon::Newer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newer_wrapper_costs_36_characters() {
        assert_eq!(WindowsDaemon::Legacy.command_limit(), 8191);
        assert_eq!(WindowsDaemon::Newer.command_limit(), 8191 - 36);
    }
}
