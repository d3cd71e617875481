//! Plain-text tables that fit the terminal: columns as wide as their content, and the columns a
//! table marks optional dropped (in order) until a row fits. `--json` always has every field.

/// A table under construction.
#[derive(Debug, Clone)]
pub struct Table {
    headers: Vec<&'static str>,
    rows: Vec<Vec<String>>,
    /// Column indices that may be left out to fit, first dropped first.
    optional: Vec<usize>,
}

/// A rendered table and the columns left out to fit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    pub dropped: Vec<&'static str>,
}

impl Table {
    pub fn new(headers: &[&'static str]) -> Table {
        Table {
            headers: headers.to_vec(),
            rows: Vec::new(),
            optional: Vec::new(),
        }
    }

    /// Column `header` may be left out when the table is too wide (call in drop order).
    pub fn optional(mut self, header: &str) -> Table {
        if let Some(i) = self.headers.iter().position(|h| *h == header) {
            self.optional.push(i);
        }
        self
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    fn widths(&self) -> Vec<usize> {
        (0..self.headers.len())
            .map(|i| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(i))
                    .map(|c| c.chars().count())
                    .chain([self.headers[i].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    /// Render within `width` columns when given (a terminal), else with every column.
    pub fn render(&self, width: Option<usize>) -> Rendered {
        let widths = self.widths();
        let mut shown: Vec<usize> = (0..self.headers.len()).collect();
        let total = |shown: &[usize]| {
            shown.iter().map(|i| widths[*i]).sum::<usize>() + 2 * shown.len().saturating_sub(1)
        };
        let mut dropped = Vec::new();
        if let Some(limit) = width {
            for col in &self.optional {
                if total(&shown) <= limit {
                    break;
                }
                shown.retain(|i| i != col);
                dropped.push(self.headers[*col]);
            }
        }
        let line = |cells: &dyn Fn(usize) -> String| {
            let mut out = String::new();
            for (n, i) in shown.iter().enumerate() {
                let cell = cells(*i);
                if n + 1 == shown.len() {
                    out.push_str(&cell);
                } else {
                    out.push_str(&format!("{cell:<w$}  ", w = widths[*i]));
                }
            }
            out.push('\n');
            out
        };
        let mut text = line(&|i| self.headers[i].to_string());
        for r in &self.rows {
            text.push_str(&line(&|i| r.get(i).cloned().unwrap_or_default()));
        }
        Rendered { text, dropped }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_columns_drop_in_order_until_the_table_fits() {
        let mut t = Table::new(&["ID", "NAME", "STATE"]).optional("NAME");
        t.row(vec!["a".repeat(30), "n".repeat(60), "started".into()]);
        let all = t.render(None);
        assert!(all.dropped.is_empty());
        assert!(all.text.lines().all(|l| l.len() > 80));
        let fit = t.render(Some(80));
        assert_eq!(fit.dropped, ["NAME"]);
        assert!(fit.text.lines().all(|l| l.len() <= 80), "{}", fit.text);
        assert!(fit.text.starts_with("ID    "));
        assert!(!fit.text.lines().any(|l| l.ends_with(' ')));
    }
}
