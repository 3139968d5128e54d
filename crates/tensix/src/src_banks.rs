//! SrcA / SrcB bank ownership (SrcASrcB.md): two banks each, every bank's `AllowedClient`
//! either the Unpackers or the Matrix Unit, and one bank pointer per client. This is the state
//! behind STALLWAIT conditions C5-C8 and the automatic waits of UNPACR and Matrix Unit
//! instructions. The data itself arrives in a later issue.

/// Who may use a bank (`SrcClient`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcClient {
    Unpackers,
    MatrixUnit,
}

/// SrcA or SrcB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    A,
    B,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SrcBanks {
    /// `SrcA[bank].AllowedClient`, `SrcB[bank].AllowedClient`; reset: Unpackers.
    pub a: [SrcClient; 2],
    pub b: [SrcClient; 2],
    /// `Unpackers[0].SrcBank` (SrcA) and `Unpackers[1].SrcBank` (SrcB).
    pub unpack_a: usize,
    pub unpack_b: usize,
    /// `MatrixUnit.SrcABank`, `MatrixUnit.SrcBBank`.
    pub math_a: usize,
    pub math_b: usize,
}

impl Default for SrcBanks {
    fn default() -> Self {
        SrcBanks {
            a: [SrcClient::Unpackers; 2],
            b: [SrcClient::Unpackers; 2],
            unpack_a: 0,
            unpack_b: 0,
            math_a: 0,
            math_b: 0,
        }
    }
}

impl SrcBanks {
    /// C5 / C6: the unpacker's current bank is not the Unpackers'.
    pub fn unpack_blocked(&self, s: Src) -> bool {
        match s {
            Src::A => self.a[self.unpack_a] != SrcClient::Unpackers,
            Src::B => self.b[self.unpack_b] != SrcClient::Unpackers,
        }
    }

    /// C7 / C8: the Matrix Unit's current bank is not the Matrix Unit's.
    pub fn math_blocked(&self, s: Src) -> bool {
        match s {
            Src::A => self.a[self.math_a] != SrcClient::MatrixUnit,
            Src::B => self.b[self.math_b] != SrcClient::MatrixUnit,
        }
    }

    /// The Matrix Unit's current bank belongs to the Matrix Unit (its data valid is set),
    /// whatever the Matrix Unit is doing.
    pub fn math_bank_valid(&self, s: Src) -> bool {
        match s {
            Src::A => self.a[self.math_a] == SrcClient::MatrixUnit,
            Src::B => self.b[self.math_b] == SrcClient::MatrixUnit,
        }
    }

    /// UNPACR with FlipSrc, UNPACR_NOP set-dvalid, SETDVALID: give the unpacker's bank to the
    /// Matrix Unit and move the unpacker to the other bank (UNPACR_Regular.md, SETDVALID.md).
    pub fn give_to_math(&mut self, s: Src) {
        match s {
            Src::A => {
                self.a[self.unpack_a] = SrcClient::MatrixUnit;
                self.unpack_a ^= 1;
            }
            Src::B => {
                self.b[self.unpack_b] = SrcClient::MatrixUnit;
                self.unpack_b ^= 1;
            }
        }
    }

    /// Matrix Unit flip (CLR_A/CLR_B via `clear_dvalid`, SETRWC, CLEARDVALID): give the Matrix
    /// Unit's bank back to the Unpackers and, unless `keep`, move to the other bank
    /// (MVMUL.md, CLEARDVALID.md; `CLR_DVALID_Src*_Disable` assumed clear).
    pub fn give_to_unpackers(&mut self, s: Src, keep: bool) {
        match s {
            Src::A => {
                self.a[self.math_a] = SrcClient::Unpackers;
                if !keep {
                    self.math_a ^= 1;
                }
            }
            Src::B => {
                self.b[self.math_b] = SrcClient::Unpackers;
                if !keep {
                    self.math_b ^= 1;
                }
            }
        }
    }

    /// CLEARDVALID with Reset: everything back to reset state (CLEARDVALID.md).
    pub fn reset(&mut self) {
        *self = SrcBanks::default();
    }
}
