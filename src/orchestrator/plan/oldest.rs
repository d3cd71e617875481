//! The `k` oldest of many, without sorting all of them (issue 35): a pass picks the next few
//! launches among every held session still waiting for one, and the next claims among every
//! claimable row. At 30,000 queued sessions a full sort per pass — most often to keep 0 to 32
//! of ~10,000 — was most of what a replica's passes cost while serving.

/// The `k` items with the smallest keys, smallest first (ties keep no particular order, as with
/// an unstable sort; keys here end with the session id, so there are none). O(n + k log k).
pub fn oldest<T, K: Ord>(mut items: Vec<T>, k: usize, key: impl Fn(&T) -> K) -> Vec<T> {
    if k == 0 {
        return Vec::new();
    }
    if items.len() > k {
        items.select_nth_unstable_by(k - 1, |a, b| key(a).cmp(&key(b)));
        items.truncate(k);
    }
    items.sort_unstable_by_key(&key);
    items
}

/// The `k` oldest (as [`oldest`]) and the rest, in no particular order.
pub fn split_oldest<T, K: Ord>(
    mut items: Vec<T>,
    k: usize,
    key: impl Fn(&T) -> K,
) -> (Vec<T>, Vec<T>) {
    if items.len() <= k {
        return (oldest(items, k, key), Vec::new());
    }
    if k == 0 {
        return (Vec::new(), items);
    }
    items.select_nth_unstable_by(k - 1, |a, b| key(a).cmp(&key(b)));
    let rest = items.split_off(k);
    items.sort_unstable_by_key(&key);
    (items, rest)
}

#[cfg(test)]
mod tests {
    use super::{oldest, split_oldest};

    /// The same as sorting everything and keeping the first `k`, for every `k` around the
    /// edges (none, one, some, all, more than all).
    #[test]
    fn oldest_k_equals_a_full_sort_truncated() {
        let items: Vec<(i64, String)> = [5, 3, 9, 1, 7, 3, 8, 2, 6, 0]
            .iter()
            .enumerate()
            .map(|(i, t)| (*t, format!("devin-{i}")))
            .collect();
        let mut sorted = items.clone();
        sorted.sort();
        for k in [0, 1, 2, 5, 9, 10, 11, 100] {
            let got = oldest(items.clone(), k, |x| (x.0, x.1.clone()));
            let want: Vec<_> = sorted.iter().take(k).cloned().collect();
            assert_eq!(got, want, "k = {k}");
        }
        assert!(oldest(Vec::<u8>::new(), 3, |x| *x).is_empty());
    }

    #[test]
    fn split_keeps_every_item_once() {
        let items = vec![5, 3, 9, 1, 7, 8, 2];
        for k in [0, 1, 3, 7, 9] {
            let (first, mut rest) = split_oldest(items.clone(), k, |x| *x);
            let mut sorted = items.clone();
            sorted.sort();
            assert_eq!(
                first,
                sorted.iter().take(k).copied().collect::<Vec<_>>(),
                "k = {k}"
            );
            rest.sort();
            assert_eq!(
                rest,
                sorted.iter().skip(k).copied().collect::<Vec<_>>(),
                "k = {k}"
            );
        }
    }
}
