//! Parsers of the flag values the gpt2 and llama examples share (clap `value_parser`s):
//! each checks its value and says what was expected.

/// `--temperature`: a finite positive number.
pub fn temperature(s: &str) -> std::result::Result<f32, String> {
    match s.parse::<f32>() {
        Ok(t) if t.is_finite() && t > 0.0 => Ok(t),
        _ => Err("expected a finite positive number".into()),
    }
}

/// `--top-p`: a number in (0, 1].
pub fn top_p(s: &str) -> std::result::Result<f32, String> {
    match s.parse::<f32>() {
        Ok(p) if p > 0.0 && p <= 1.0 => Ok(p),
        _ => Err("expected a number in (0, 1]".into()),
    }
}

/// One `--bench-forward` shape, `BxT` with both positive.
pub fn shape(s: &str) -> std::result::Result<(usize, usize), String> {
    let (b, t) = s
        .split_once('x')
        .ok_or_else(|| "expected BxT (batch x tokens), such as 2x32".to_string())?;
    let positive = |v: &str| v.trim().parse::<usize>().ok().filter(|&n| n > 0);
    match (positive(b), positive(t)) {
        (Some(b), Some(t)) => Ok((b, t)),
        _ => Err("expected BxT with two positive integers, such as 2x32".into()),
    }
}
