//! `orchestrator run` on a state dir whose sessions another provider (or endpoint) holds: find
//! what the state dir holds, let [`handover::decide`] choose, then refuse (exit 2, naming the
//! sessions and the commands that hand them over) or hand them over through the old provider.

use std::sync::Arc;

use anyhow::Result;

use super::RunArgs;
use crate::api::HttpClient;
use crate::api::devin::{DevinClient, ListQuery};
use crate::api::devin_types::Phase;
use crate::commands::Ctx;
use crate::config::Config;
use crate::env;
use crate::orchestrator::handover::{self, Found, Site, Start};
use crate::orchestrator::plan;
use crate::orchestrator::state::{OutpostState, StateError};
use crate::provider::{self, Provider, ProviderKind};

/// The variable that sets a provider's endpoint.
fn endpoint_var(kind: ProviderKind) -> &'static env::EnvVar {
    crate::settings::descriptor(kind).endpoint_var
}

/// The site `kind` resolves to with `config`.
pub(super) fn site(kind: ProviderKind, config: &Config) -> Result<Site> {
    let endpoint = (crate::settings::descriptor(kind).endpoint)(config)?;
    Ok(Site {
        provider: kind,
        endpoint,
    })
}

/// What the state dir holds for the outpost, and the sites involved.
pub(super) struct Switch<'a> {
    pub ctx: &'a Ctx,
    pub args: &'a RunArgs,
    pub current: Site,
    pub provider: &'a dyn Provider,
    pub devin: &'a DevinClient,
    pub http: &'a HttpClient,
    pub outpost: &'a str,
    pub acceptor: &'a str,
    pub state: &'a OutpostState,
}

impl Switch<'_> {
    /// Make sure no session the state dir holds is served elsewhere, then record this site.
    pub(super) async fn settle(&self) -> Result<()> {
        let recorded = self.state.site()?;
        if recorded.as_ref() == Some(&self.current) {
            return Ok(());
        }
        let claims = self.held_claims().await?;
        let sleepers = self.state.sleepers();
        let holds = !claims.is_empty() || !sleepers.is_empty();
        let adopt_from = match self.args.adopt_from {
            Some(k) => Some(match &recorded {
                Some(r) if r.provider == k => r.clone(),
                _ => site(k, &self.ctx.config)?,
            }),
            None => None,
        };
        let held: Vec<&String> = claims
            .iter()
            .chain(sleepers.keys())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let found_here = recorded.is_none() && holds && self.any_here(&held).await?;
        let decision = handover::decide(&Found {
            recorded: recorded.as_ref(),
            current: &self.current,
            adopt_from: adopt_from.as_ref(),
            holds,
            found_here,
        });
        match decision {
            Start::Serve => {}
            Start::Refuse { on } => return Err(self.refusal(on, &claims, &sleepers).into()),
            Start::HandOver { from } => {
                let old = self.old_provider(&from).await?;
                self.ctx.printer.note(&format!(
                    "handing {} session(s) over from {from} to {}: stopping their sandboxes there first (disks kept)",
                    held.len(),
                    self.current
                ));
                let done =
                    handover::hand_over(old.as_ref(), self.outpost, &claims, &sleepers).await?;
                for (session, sandbox) in &done.stopped {
                    self.ctx.printer.note(&format!(
                        "  {session}: sandbox {sandbox} stopped on {} (disk kept); served on {} next",
                        from.provider, self.current.provider
                    ));
                }
                for (session, sandbox) in &done.kept {
                    self.ctx.printer.note(&format!(
                        "  {session} (sleeping): its disk stays in sandbox {sandbox} on {from}, untouched; it wakes on {} with a new one",
                        self.current.provider
                    ));
                }
                // The sleepers' sandboxes stay on the old site; this site's janitor and status
                // would only misread them.
                self.state.save_sleepers(&Default::default())?;
            }
        }
        self.state.save_site(&self.current)
    }

    /// The sessions whose claims our acceptor holds, as the server says.
    async fn held_claims(&self) -> Result<Vec<String>> {
        let q = ListQuery {
            outpost: Some(self.outpost.to_string()),
            phase: Some(Phase::Claimed),
            acceptor_id: Some(self.acceptor.to_string()),
            ..ListQuery::default()
        };
        let list = self.devin.list(&q).await?;
        Ok(list
            .entries
            .iter()
            .filter(|e| plan::holder(e, self.acceptor) == plan::Holder::Me)
            .map(|e| e.session_id.clone())
            .collect())
    }

    /// Does any of `held` have a sandbox on the current site? (A state dir without a record.)
    async fn any_here(&self, held: &[&String]) -> Result<bool> {
        let labels = [(
            crate::orchestrator::LABEL_OUTPOST.to_string(),
            self.outpost.to_string(),
        )]
        .into_iter()
        .collect();
        let here = self.provider.list(&labels).await?;
        Ok(here.iter().any(|sb| {
            sb.labels
                .get(crate::orchestrator::LABEL_SESSION)
                .is_some_and(|s| held.contains(&s))
        }))
    }

    /// The provider at the old site (its endpoint from the record; credentials as configured).
    async fn old_provider(&self, from: &Site) -> Result<Arc<dyn Provider>> {
        let mut config = self.ctx.config.clone();
        config.set_flag(endpoint_var(from.provider), Some(from.endpoint.clone()));
        let settings = crate::settings::ProviderSettings::of(&config, from.provider)?;
        provider::build(settings, self.http.clone()).await
    }

    /// `outposts orchestrator run` with `--outpost` as given, for hints.
    fn command(&self, env_prefix: Option<String>, rest: &str) -> String {
        let mut cmd = String::new();
        if let Some(p) = env_prefix {
            cmd.push_str(&p);
            cmd.push(' ');
        }
        cmd.push_str("outposts orchestrator run");
        if let Some(o) = &self.args.outpost {
            cmd.push_str(&format!(" --outpost {}", crate::shell::posix_quote(o)));
        }
        cmd.push_str(rest);
        cmd
    }

    fn refusal(
        &self,
        on: Option<Site>,
        claims: &[String],
        sleepers: &std::collections::BTreeMap<String, plan::retention::Sleeper>,
    ) -> StateError {
        let mut what = Vec::new();
        if !claims.is_empty() {
            what.push(format!("served: {}", claims.join(", ")));
        }
        if !sleepers.is_empty() {
            let ids: Vec<&str> = sleepers.keys().map(String::as_str).collect();
            what.push(format!("sleeping: {}", ids.join(", ")));
        }
        let here = self.current.provider;
        let over =
            |k: ProviderKind| self.command(None, &format!(" --provider {here} --adopt-from {k}"));
        match on {
            Some(old) => {
                // Serving them where they are needs that site's endpoint, when it is not the
                // one configured now.
                let prefix = match site(old.provider, &self.ctx.config) {
                    Ok(s) if s == old => None,
                    _ => Some(format!(
                        "{}={}",
                        endpoint_var(old.provider).name,
                        crate::shell::posix_quote(&old.endpoint)
                    )),
                };
                let stay = self.command(prefix, &format!(" --provider {}", old.provider));
                StateError {
                    message: format!(
                        "the state dir {} holds sessions of outpost {} on {old} ({}); starting on {} would serve them a second time",
                        self.state.dir().display(),
                        self.outpost,
                        what.join("; "),
                        self.current
                    ),
                    hint: format!(
                        "keep serving them there: `{stay}`; or hand them over (their sandboxes on {} are stopped first, disks kept): `{}`",
                        old.provider,
                        over(old.provider)
                    ),
                }
            }
            None => {
                let others: Vec<String> = [
                    ProviderKind::Local,
                    ProviderKind::Daytona,
                    ProviderKind::Coreweave,
                ]
                .into_iter()
                .filter(|k| *k != here)
                .map(|k| format!("on {k}: `{}`", over(k)))
                .collect();
                StateError {
                    message: format!(
                        "the state dir {} holds sessions of outpost {} ({}) but records no provider (written by an older version), and none of them has a sandbox on {}; starting here could serve them a second time",
                        self.state.dir().display(),
                        self.outpost,
                        what.join("; "),
                        self.current
                    ),
                    hint: format!(
                        "say where they run — {}; or, if they do run on {here}: `{}`",
                        others.join("; "),
                        over(here)
                    ),
                }
            }
        }
    }
}
