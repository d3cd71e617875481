//! `emulator session new --rate 1/s --for 5m`: sessions enqueued as a Poisson stream (gaps
//! drawn from an exponential distribution), the arrival pattern warm capacity is sized for.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};

/// `1/s`, `30/m`, `120/h`, or a bare number per second.
pub fn parse_rate(s: &str) -> Result<f64, String> {
    let s = s.trim();
    let (n, per) = match s.split_once('/') {
        Some((n, unit)) => {
            let per = match unit.trim() {
                "s" | "sec" | "second" => 1.0,
                "m" | "min" | "minute" => 60.0,
                "h" | "hour" => 3600.0,
                other => return Err(format!("`{other}` is not a unit (use s, m or h, e.g. 1/s)")),
            };
            (n.trim(), per)
        }
        None => (s, 1.0),
    };
    match n.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v / per),
        _ => Err(format!("`{s}` is not a rate (e.g. 1/s, 30/m)")),
    }
}

/// Offsets (seconds from the start) of the arrivals of a Poisson stream of `rate` per second
/// over `span`: exponential gaps, `-ln(U)/rate`.
pub fn arrival_offsets(rate: f64, span: Duration, seed: u64) -> Vec<f64> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut t = 0.0;
    let mut out = Vec::new();
    loop {
        // 1 - U lies in (0, 1]: its log is finite.
        let u: f64 = 1.0 - rng.r#gen::<f64>();
        t += -u.ln() / rate;
        if t >= span.as_secs_f64() {
            return out;
        }
        out.push(t);
    }
}

/// Wait until `offset` seconds after `start`.
pub async fn wait_for(start: Instant, offset: f64) {
    let at = start + Duration::from_secs_f64(offset);
    tokio::time::sleep_until(at.into()).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse() {
        for (text, per_second) in [("1/s", 1.0), ("30/m", 0.5), ("3600/h", 1.0), ("2", 2.0)] {
            assert_eq!(parse_rate(text), Ok(per_second), "{text}");
        }
        assert!(parse_rate("1/d").unwrap_err().contains("`d`"));
        assert!(parse_rate("0/s").is_err());
        assert!(parse_rate("fast").unwrap_err().contains("`fast`"));
    }

    #[test]
    fn a_poisson_stream_has_the_asked_rate_and_is_reproducible() {
        let offsets = arrival_offsets(1.0, Duration::from_secs(3000), 7);
        // 3000 expected; a Poisson count's standard deviation is √3000 ≈ 55.
        assert!((2800..3200).contains(&offsets.len()), "{}", offsets.len());
        assert!(offsets.windows(2).all(|w| w[0] < w[1]));
        assert!(offsets.iter().all(|&t| t < 3000.0));
        assert_eq!(offsets, arrival_offsets(1.0, Duration::from_secs(3000), 7));
        // Exponential gaps: about e⁻¹ of them are longer than the mean.
        let long = offsets.windows(2).filter(|w| w[1] - w[0] > 1.0).count();
        let share = long as f64 / offsets.len() as f64;
        assert!((0.33..0.41).contains(&share), "{share}");
    }
}
