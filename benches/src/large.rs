//! A generated large input: employee-like records (the shape of
//! `tabular.json`) as compact JSON, `{"employees":[...]}`, of about a given
//! size. Deterministic: the same size gives the same bytes.

use std::io::{self, Write};

const FIRST: [&str; 16] = [
    "Phoebe", "Debra", "Marshall", "Trycia", "Renee", "Blake", "Rey", "Ludwig", "Cleta", "Jasper",
    "Nigel", "Yasmeen", "Braxton", "Cole", "Christa", "Bette",
];
const LAST: [&str; 16] = [
    "Streich",
    "Carter-Jacobs",
    "Nikolaus",
    "Stracke",
    "Ebert",
    "Fadel",
    "Pacocha",
    "Wiegand",
    "O'Conner",
    "Rowe",
    "Effertz",
    "Lebsack",
    "Beatty",
    "Gutkowski",
    "Brekke",
    "Nienow",
];
const DEPARTMENTS: [&str; 8] = [
    "Engineering",
    "Sales",
    "Marketing",
    "HR",
    "Operations",
    "Finance",
    "Support",
    "Legal",
];
const DOMAINS: [&str; 4] = ["gmail.com", "yahoo.com", "hotmail.com", "example.org"];

/// xorshift64*: small, fast, deterministic.
#[derive(Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Writes records to `out` until at least `target_bytes` are written;
/// returns the number of bytes and of records.
pub fn write_employees(out: &mut dyn Write, target_bytes: u64) -> io::Result<(u64, u64)> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut written: u64 = 0;
    let mut line = Vec::with_capacity(256);
    out.write_all(b"{\"employees\":[")?;
    written += 14;
    let mut id: u64 = 0;
    while written < target_bytes.saturating_sub(3) || id == 0 {
        id += 1;
        line.clear();
        if id > 1 {
            line.push(b',');
        }
        let first = FIRST[rng.below(16) as usize];
        let last = LAST[rng.below(16) as usize];
        let _ = write!(
            line,
            "{{\"id\":{id},\"name\":\"{first} {last}\",\"email\":\"{}.{}{}@{}\",\
             \"department\":\"{}\",\"salary\":{},\"yearsExperience\":{},\
             \"active\":{},\"rating\":{}.{}}}",
            first.to_ascii_lowercase(),
            last.to_ascii_lowercase().replace('\'', ""),
            rng.below(100),
            DOMAINS[rng.below(4) as usize],
            DEPARTMENTS[rng.below(8) as usize],
            40_000 + rng.below(120_000),
            rng.below(30),
            rng.below(2) == 0,
            1 + rng.below(4),
            rng.below(100),
        );
        out.write_all(&line)?;
        written += line.len() as u64;
    }
    out.write_all(b"]}\n")?;
    written += 3;
    Ok((written, id))
}

/// Parses `1MB`, `10mb`, `100M`, `512KB`, `2GB` or a plain byte count
/// (decimal units: 1 MB = 1,000,000 bytes).
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let num: f64 = num.parse().ok()?;
    let mult = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "m" | "mb" => 1e6,
        "g" | "gb" => 1e9,
        _ => return None,
    };
    Some((num * mult) as u64)
}

/// The peak resident set of this process (`VmHWM` of /proc/self/status),
/// in bytes; `None` off Linux.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generates_valid_json_of_about_the_size() {
        let mut out = Vec::new();
        let (bytes, records) = write_employees(&mut out, 100_000).unwrap();
        assert_eq!(bytes as usize, out.len());
        assert!(out.len() >= 100_000 && out.len() < 100_300, "{}", out.len());
        let v = codec_core::from_slice(&out).unwrap();
        let rows = v.get("employees").and_then(|e| e.as_array()).unwrap();
        assert_eq!(rows.len() as u64, records);
        let mut again = Vec::new();
        write_employees(&mut again, 100_000).unwrap();
        assert_eq!(out, again);
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("100MB"), Some(100_000_000));
        assert_eq!(parse_size("1mb"), Some(1_000_000));
        assert_eq!(parse_size("512KB"), Some(512_000));
        assert_eq!(parse_size("42"), Some(42));
        assert_eq!(parse_size("1.5M"), Some(1_500_000));
        assert_eq!(parse_size("x"), None);
    }
}
