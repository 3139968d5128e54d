//! Buffer data of `bhemu run`: element encodings, seeded random inputs, the bytes each input
//! buffer starts with.
use super::*;

/// f32 → bf16 with round-to-nearest-even (NaN kept quiet).
pub(super) fn f32_to_bf16(v: f32) -> u16 {
    let b = v.to_bits();
    if v.is_nan() {
        return ((b >> 16) | 0x40) as u16;
    }
    let round = 0x7FFF + ((b >> 16) & 1);
    (b.wrapping_add(round) >> 16) as u16
}

pub(super) fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

/// Element `i` of `bytes` in `f` as f64.
pub(super) fn element(f: Format, bytes: &[u8], i: usize) -> f64 {
    let b = &bytes[i * f.bytes()..(i + 1) * f.bytes()];
    match f {
        Format::Bf16 => f64::from(bf16_to_f32(u16::from_le_bytes([b[0], b[1]]))),
        Format::Fp32 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        Format::U32 => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        Format::U8 => f64::from(b[0]),
        Format::I32 => f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
    }
}

/// The 32 bits of element `i` for a 4-byte format, else its value as an int32.
pub(super) fn raw32(f: Format, bytes: &[u8], i: usize) -> u32 {
    if f.bytes() == 4 {
        let b = &bytes[i * 4..i * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    } else {
        element(f, bytes, i) as i32 as u32
    }
}

pub(super) fn encode(f: Format, v: f64, out: &mut Vec<u8>) {
    match f {
        Format::Bf16 => out.extend_from_slice(&f32_to_bf16(v as f32).to_le_bytes()),
        Format::Fp32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
        Format::U32 => out.extend_from_slice(&(v as u32).to_le_bytes()),
        Format::U8 => out.push(v as u8),
        Format::I32 => out.extend_from_slice(&(v as i32).to_le_bytes()),
    }
}

/// Seeded inputs: floats uniform in [-2, 2), integers uniform over their range (xorshift32).
pub(super) fn random_data(f: Format, seed: u32, n_bytes: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9) | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    let mut out = Vec::with_capacity(n_bytes);
    while out.len() < n_bytes {
        let r = next();
        match f {
            Format::Bf16 | Format::Fp32 => encode(
                f,
                f64::from(r >> 8) / f64::from(1u32 << 24) * 4.0 - 2.0,
                &mut out,
            ),
            Format::U32 | Format::I32 => out.extend_from_slice(&r.to_le_bytes()),
            Format::U8 => out.push(r as u8),
        }
    }
    out.truncate(n_bytes);
    out
}

/// A buffer's bytes on every tile.
pub(super) fn input_bytes(
    b: &Buffer,
    i: usize,
    f: Format,
    base: &Path,
) -> Result<Vec<u8>, CliError> {
    let field = format!("input[{i}] ({})", b.name);
    let n = b.pages as usize * b.page_size as usize;
    let given = [b.random.is_some(), b.values.is_some(), b.file.is_some()];
    if given.iter().filter(|g| **g).count() != 1 {
        return Err(CliError::new(format!(
            "{field}: give exactly one of random, values, file"
        )));
    }
    if let Some(seed) = b.random {
        return Ok(random_data(f, seed, n));
    }
    if let Some(v) = &b.values {
        let mut out = Vec::new();
        for x in v.iter().cycle().take(n / f.bytes()) {
            encode(f, *x, &mut out);
        }
        out.resize(n, 0);
        return Ok(out);
    }
    let path = base.join(b.file.as_deref().unwrap_or(Path::new("")));
    let data = std::fs::read(&path)
        .map_err(|e| CliError::new(format!("{field}.file: {}: {e}", path.display())))?;
    if data.len() != n {
        return Err(CliError::new(format!(
            "{field}.file: {} has {} bytes, pages × page_size is {n}",
            path.display(),
            data.len()
        )));
    }
    Ok(data)
}
