//! The price table of a provider: built-in defaults overridden by `DAYTONA_PRICES`,
//! `COREWEAVE_PRICES` or `LOCAL_PRICES` (environment, `.env` or `outposts.toml`).

use crate::config::{Config, ConfigError};
use crate::cost::prices::Prices;
use crate::env;
use crate::provider::ProviderKind;

/// Resolves [`Prices`] per provider.
pub struct PriceSettings;

impl PriceSettings {
    /// The table of `kind`; a bad override is a configuration error naming the variable and
    /// the entry (exit 2).
    pub fn resolve(config: &Config, kind: ProviderKind) -> Result<Prices, ConfigError> {
        let (var, table) = super::descriptor(kind).prices;
        let mut prices = table();
        if let Some(spec) = config.parse(var, |s| Ok(s.to_string()))? {
            prices.apply(&spec).map_err(|problem| {
                let r = config.get(var);
                ConfigError::Invalid {
                    var: var.name,
                    hint: format!(
                        "set {} to entries like running.vcpu_second=0.000014 (states running, \
                         stopped, archived; rates vcpu_second, memory_gib_second, \
                         disk_gib_hour), or unset it for the built-in prices",
                        var.name
                    ),
                    origin: r
                        .map(|r| r.source)
                        .unwrap_or(crate::config::Source::Default),
                    problem,
                }
            })?;
        }
        Ok(prices)
    }

    /// `COST_ALERT_HOURLY`: a number of USD per hour above 0, or unset.
    pub fn alert(config: &Config) -> Result<Option<f64>, ConfigError> {
        config.parse(&env::COST_ALERT_HOURLY, |s| {
            s.trim_start_matches('$')
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v > 0.0)
                .ok_or_else(|| format!("`{s}` is not an amount of USD per hour above 0 (e.g. 2.5)"))
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::config::LoadOptions;

    fn config(env: &[(&str, &str)], toml: Option<&str>) -> Config {
        let dir = tempfile::tempdir().unwrap();
        let mut opts = LoadOptions::default();
        if let Some(t) = toml {
            let path = dir.path().join("outposts.toml");
            std::fs::write(&path, t).unwrap();
            opts.config_file = Some(path);
        }
        let env: BTreeMap<String, String> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::load_with_env(env, &opts, dir.path()).unwrap()
    }

    #[test]
    fn defaults_per_provider() {
        let c = config(&[], None);
        assert_eq!(
            PriceSettings::resolve(&c, ProviderKind::Daytona).unwrap(),
            Prices::daytona()
        );
        assert_eq!(
            PriceSettings::resolve(&c, ProviderKind::Local).unwrap(),
            Prices::local()
        );
    }

    #[test]
    fn toml_list_overrides_and_env_wins() {
        let toml = "daytona_prices = [\"running.vcpu_second=0.5\", \"archived.disk_gib_hour=0.25\"]\n\
                    local_prices = \"running.vcpu_second=0.01\"\n";
        let c = config(&[], Some(toml));
        let d = PriceSettings::resolve(&c, ProviderKind::Daytona).unwrap();
        assert_eq!(d.running.vcpu_second, 0.5);
        assert_eq!(d.archived.disk_gib_hour, 0.25);
        assert_eq!(
            d.running.memory_gib_second,
            Prices::daytona().running.memory_gib_second
        );
        let l = PriceSettings::resolve(&c, ProviderKind::Local).unwrap();
        assert_eq!(l.running.vcpu_second, 0.01);
        let c = config(&[("DAYTONA_PRICES", "running.vcpu_second=2")], Some(toml));
        let d = PriceSettings::resolve(&c, ProviderKind::Daytona).unwrap();
        assert_eq!(d.running.vcpu_second, 2.0);
        assert_eq!(d.archived.disk_gib_hour, 0.0);
    }

    #[test]
    fn bad_override_names_variable_and_entry() {
        let c = config(&[("COREWEAVE_PRICES", "running.gpu_second=1")], None);
        let err = PriceSettings::resolve(&c, ProviderKind::Coreweave).unwrap_err();
        let text = format!("{err}");
        assert!(text.contains("COREWEAVE_PRICES"), "{text}");
        assert!(text.contains("gpu_second"), "{text}");
        assert!(err.hint().contains("running.vcpu_second"));
    }
}
