//! A step's [`Report`] as bytes (little-endian), the form it crosses between processes in:
//! `least` u64, `moved` u8, `failed` (u8 flag, u32 length, UTF-8), then the sends: a u32
//! count and per send the sending chip u32, channel u8, issue cycle u64, and the payload —
//! kind 0, destination u32, length u32 and the bytes, or kind 1, destination u32, value u32.
use bhemu_chip::eth::{Payload, Send};
use bhemu_chip::system::lockstep::Report;

pub fn encode(r: &Report) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend(r.least.to_le_bytes());
    b.push(u8::from(r.moved));
    match &r.failed {
        Some(m) => {
            b.push(1);
            put_bytes(&mut b, m.as_bytes());
        }
        None => b.push(0),
    }
    b.extend((r.sends.len() as u32).to_le_bytes());
    for (chip, s) in &r.sends {
        b.extend(chip.to_le_bytes());
        b.push(s.channel);
        b.extend(s.cycle.to_le_bytes());
        match &s.payload {
            Payload::Data { dest, bytes } => {
                b.push(0);
                b.extend(dest.to_le_bytes());
                put_bytes(&mut b, bytes);
            }
            Payload::Reg { dest, value } => {
                b.push(1);
                b.extend(dest.to_le_bytes());
                b.extend(value.to_le_bytes());
            }
        }
    }
    b
}

fn put_bytes(b: &mut Vec<u8>, data: &[u8]) {
    b.extend((data.len() as u32).to_le_bytes());
    b.extend_from_slice(data);
}

/// The report `b` holds; an error names what is malformed and where.
pub fn decode(b: &[u8]) -> Result<Report, String> {
    let mut r = Reader { b, at: 0 };
    let least = r.u64()?;
    let moved = r.flag("moved")?;
    let failed = match r.flag("failed")? {
        true => Some(String::from_utf8(r.bytes()?).map_err(|_| r.error("failed: not UTF-8"))?),
        false => None,
    };
    let n = r.u32()?;
    let mut sends = Vec::new();
    for _ in 0..n {
        let chip = r.u32()?;
        let channel = r.u8()?;
        let cycle = r.u64()?;
        let payload = match r.u8()? {
            0 => Payload::Data {
                dest: r.u32()?,
                bytes: r.bytes()?,
            },
            1 => Payload::Reg {
                dest: r.u32()?,
                value: r.u32()?,
            },
            k => return Err(r.error(&format!("payload kind {k}"))),
        };
        sends.push((
            chip,
            Send {
                channel,
                cycle,
                payload,
            },
        ));
    }
    if r.at != b.len() {
        return Err(r.error("bytes after the last send"));
    }
    Ok(Report {
        least,
        moved,
        sends,
        failed,
    })
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> String {
        format!(
            "malformed step report at byte {} of {}: {what}",
            self.at,
            self.b.len()
        )
    }
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self
            .at
            .checked_add(n)
            .filter(|e| *e <= self.b.len())
            .ok_or_else(|| self.error(&format!("{n} bytes expected, the report ends")))?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, String> {
        let mut w = [0u8; 4];
        w.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(w))
    }
    fn u64(&mut self) -> Result<u64, String> {
        let mut w = [0u8; 8];
        w.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(w))
    }
    fn flag(&mut self, what: &str) -> Result<bool, String> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(self.error(&format!("{what} flag {v}"))),
        }
    }
    fn bytes(&mut self) -> Result<Vec<u8>, String> {
        let n = self.u32()? as usize;
        Ok(self.take(n)?.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Report {
        Report {
            least: 123_456_789_012,
            moved: true,
            failed: Some("chip 1: µ".into()),
            sends: vec![
                (
                    0,
                    Send {
                        channel: 2,
                        cycle: 7,
                        payload: Payload::Data {
                            dest: 0x5_0000,
                            bytes: (0..64).collect(),
                        },
                    },
                ),
                (
                    1,
                    Send {
                        channel: 9,
                        cycle: u64::MAX,
                        payload: Payload::Reg {
                            dest: 0xFFB9_0004,
                            value: 2,
                        },
                    },
                ),
            ],
        }
    }

    #[test]
    fn mc12_a_report_crosses_as_bytes_unchanged() {
        for r in [sample(), Report::default()] {
            assert_eq!(decode(&encode(&r)), Ok(r));
        }
        // Layout: least first, little-endian, then moved.
        let b = encode(&sample());
        assert_eq!(&b[..9], &[0x14, 0x1A, 0x99, 0xBE, 0x1C, 0, 0, 0, 1]);
    }

    #[test]
    fn mc12_a_malformed_report_is_an_error_naming_where() {
        let b = encode(&sample());
        for cut in [0, 5, 9, 20, b.len() - 1] {
            let e = decode(&b[..cut]).expect_err("cut short");
            assert!(e.starts_with("malformed step report at byte "), "{e}");
            assert!(e.contains("expected, the report ends"), "{e}");
        }
        let mut extra = b.clone();
        extra.push(0);
        assert_eq!(
            decode(&extra),
            Err(format!(
                "malformed step report at byte {} of {}: bytes after the last send",
                b.len(),
                b.len() + 1
            ))
        );
        let mut bad = encode(&Report::default());
        bad[8] = 7;
        assert_eq!(
            decode(&bad),
            Err("malformed step report at byte 9 of 14: moved flag 7".into())
        );
    }
}
