//! The network-policy stage of provisioning (the rules are the planner's, `plan::network`):
//! what the session itself needs to reach, the egress its sandbox must have, and bringing a
//! started sandbox in line before anything runs in it. Results are typed; nothing is decided here.

use super::plan::network::{self, EgressStep};
use super::provision::ProvisionError;
use super::run::{Book, Orchestrator, SessionView};
use crate::api::network_policy::{Allow, Egress};
use crate::provider::SandboxInfo;

impl Orchestrator {
    /// The egress the session's sandbox must have, if this provider can enforce it.
    pub(super) fn wanted_egress(&self, view: &SessionView) -> Result<Egress, ProvisionError> {
        let claim = view.claim.as_ref();
        let listed = view.row.as_ref().map(|e| &e.network_policy);
        let policy = network::policy_of(claim.map(|c| &c.network_policy), listed).cloned();
        let gateway = claim.and_then(|c| c.gateway.clone());
        let gateway = gateway.or_else(|| self.opts.gateway_fallback.clone());
        let needed = needed_hosts(gateway.as_deref(), &self.opts.static_base, &self.opts.repos);
        let want = network::wanted(policy.as_ref(), &needed).map_err(ProvisionError::Policy)?;
        self.provider
            .check_egress(&want)
            .map_err(ProvisionError::Policy)?;
        Ok(want)
    }

    /// A started sandbox whose egress is `want`: as it is, or changed once where the provider
    /// can; otherwise a refusal saying why.
    pub(super) async fn enforce_egress(
        &self,
        mut sb: SandboxInfo,
        want: &Egress,
    ) -> Result<SandboxInfo, ProvisionError> {
        let mut applied = false;
        loop {
            match network::egress_step(want, &sb.egress, applied, self.provider.can_set_egress()) {
                EgressStep::Keep => return Ok(sb),
                EgressStep::Refuse(why) => {
                    return Err(ProvisionError::Policy(format!("sandbox {}: {why}", sb.id)));
                }
                EgressStep::Apply => {
                    tracing::info!(sandbox = %sb.id, "setting the sandbox's egress: {}", want.summary());
                    self.provider.set_egress(&sb.id, want).await?;
                    applied = true;
                    let id = sb.id.clone();
                    sb = self.provider.get(&id).await?.ok_or_else(|| {
                        anyhow::anyhow!("sandbox {id} vanished while its egress was set")
                    })?;
                }
            }
        }
    }
}

/// The refusals still remembered (the session's failures are), for the status file.
pub(super) fn refusals(book: &Book) -> Vec<super::report::RefusedRow> {
    book.refusals()
        .map(|(id, reason, at)| super::report::RefusedRow {
            session_id: id.to_string(),
            reason: reason.to_string(),
            at,
            retry_at: book.track(id).and_then(|t| t.retry_at),
        })
        .collect()
}

/// What a session needs to reach whatever its policy says: its gateway, the remote
/// distribution, and the git hosts of `REPOS` (all from configuration and the claim).
pub fn needed_hosts(gateway: Option<&str>, static_base: &str, repos: &[String]) -> Vec<Allow> {
    let mut hosts: Vec<String> = [gateway, Some(static_base)]
        .into_iter()
        .flatten()
        .filter_map(url_host)
        .collect();
    hosts.extend(repos.iter().filter_map(|r| repo_host(r)));
    hosts.iter().map(|h| Allow::host(h)).collect()
}

fn url_host(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    match u.host()? {
        url::Host::Domain(d) => Some(d.to_string()),
        url::Host::Ipv4(a) => Some(a.to_string()),
        url::Host::Ipv6(a) => Some(a.to_string()),
    }
}

/// `https://host/…`, `ssh://git@host/…` or scp-like `git@host:org/repo`; local paths have none.
fn repo_host(repo: &str) -> Option<String> {
    if repo.contains("://") {
        return url_host(repo).filter(|_| !repo.starts_with("file:"));
    }
    let (before, _) = repo.split_once(':')?;
    let host = before.rsplit('@').next()?;
    (!host.is_empty() && !host.contains('/')).then(|| host.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needed_hosts_come_from_configuration() {
        let got: Vec<String> = needed_hosts(
            Some("https://gw.devin.ai:8443/x"),
            "http://127.0.0.1:9/static",
            &[
                "https://github.com/o/a.git".into(),
                "git@gitlab.example.com:o/b".into(),
                "/srv/git/c.git".into(),
                "file:///srv/git/d.git".into(),
            ],
        )
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(
            got,
            [
                "gw.devin.ai",
                "127.0.0.1/32",
                "github.com",
                "gitlab.example.com"
            ]
        );
    }
}
