//! The Tensix backend configuration: `Config[2][CFG_STATE_SIZE * 4]` (two thread-agnostic
//! states, any thread may use either) and `ThreadConfig[3][THD_STATE_SIZE]` (16-bit values,
//! one bank per thread). A thread's instructions read `Config[StateID]` where
//! `StateID = ThreadConfig[CurrentThread].CFG_STATE_ID_StateID`.
//!
//! Source: tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/BackendConfiguration.md.
//! Field positions come from the generated [`super::cfg_fields`] table.
use super::cfg_fields::{self, CFG_STATE_SIZE, GLOBAL_CFGREG_BASE_ADDR32, THD_STATE_SIZE};

/// Words of one `Config` state.
pub const CFG_WORDS: usize = CFG_STATE_SIZE * 4;

/// Which array a field indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// `Config[StateID]` (thread-agnostic, two states).
    Config,
    /// `ThreadConfig[CurrentThread]` (16-bit values).
    Thread,
}

/// One named configuration field: `(Space[..][addr32] & mask) >> shamt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CfgField {
    pub name: &'static str,
    pub space: Space,
    pub addr32: usize,
    pub shamt: u32,
    pub mask: u32,
}

impl CfgField {
    /// The field's value inside its word.
    pub fn extract(&self, word: u32) -> u32 {
        (word & self.mask) >> self.shamt
    }

    /// `word` with the field replaced by `value` (bits beyond the field's width are dropped,
    /// as a read-modify-write of the register would).
    pub fn insert(&self, word: u32, value: u32) -> u32 {
        (word & !self.mask) | ((value << self.shamt) & self.mask)
    }

    /// Looks a field up by its `cfg_defines.h` name.
    pub fn by_name(name: &str) -> Option<CfgField> {
        cfg_fields::FIELDS.iter().copied().find(|f| f.name == name)
    }
}

/// Both configuration arrays.
#[derive(Clone, PartialEq, Eq)]
pub struct ConfigSpace {
    config: Box<[[u32; CFG_WORDS]; 2]>,
    thread: [[u16; THD_STATE_SIZE]; 3],
}

impl Default for ConfigSpace {
    fn default() -> Self {
        ConfigSpace::new()
    }
}

impl std::fmt::Debug for ConfigSpace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nz = |s: &[u32]| s.iter().filter(|&&w| w != 0).count();
        write!(
            f,
            "ConfigSpace {{ non-zero words: state0 {}, state1 {} }}",
            nz(&self.config[0][..]),
            nz(&self.config[1][..])
        )
    }
}

impl ConfigSpace {
    /// Everything zero.
    pub fn new() -> Self {
        ConfigSpace {
            config: Box::new([[0; CFG_WORDS]; 2]),
            thread: [[0; THD_STATE_SIZE]; 3],
        }
    }

    /// `Config[state][addr32]`; `None` if either index is outside the space.
    pub fn word(&self, state: usize, addr32: usize) -> Option<u32> {
        self.config.get(state)?.get(addr32).copied()
    }

    /// Writes `Config[state][addr32]` with the documented side effects: a word at or above
    /// `GLOBAL_CFGREG_BASE_ADDR32` is written in both states, and any write to
    /// `STATE_RESET_EN` clears words below `GLOBAL_CFGREG_BASE_ADDR32` of that state.
    /// `None` (nothing written) if an index is outside the space.
    pub fn write_word(&mut self, state: usize, addr32: usize, value: u32) -> Option<()> {
        if state > 1 || addr32 >= CFG_WORDS {
            return None;
        }
        if addr32 == cfg_fields::STATE_RESET_EN.addr32 {
            self.config[state][..GLOBAL_CFGREG_BASE_ADDR32].fill(0);
            return Some(());
        }
        if addr32 >= GLOBAL_CFGREG_BASE_ADDR32 {
            self.config[0][addr32] = value;
            self.config[1][addr32] = value;
        } else {
            self.config[state][addr32] = value;
        }
        Some(())
    }

    /// Writes `Config[state][addr32]` without the `STATE_RESET_EN` side effect (RMWCIB's
    /// path, BackendConfiguration.md "except via RMWCIB").
    pub fn write_word_plain(&mut self, state: usize, addr32: usize, value: u32) -> Option<()> {
        if state > 1 || addr32 >= CFG_WORDS {
            return None;
        }
        if addr32 >= GLOBAL_CFGREG_BASE_ADDR32 {
            self.config[0][addr32] = value;
            self.config[1][addr32] = value;
        } else {
            self.config[state][addr32] = value;
        }
        Some(())
    }

    /// `ThreadConfig[thread][addr32].Value`; `None` outside the space.
    pub fn thread_word(&self, thread: usize, addr32: usize) -> Option<u16> {
        self.thread.get(thread)?.get(addr32).copied()
    }

    /// `ThreadConfig[thread][addr32].Value = value` (SETC16); `None` outside the space.
    pub fn write_thread_word(&mut self, thread: usize, addr32: usize, value: u16) -> Option<()> {
        *self.thread.get_mut(thread)?.get_mut(addr32)? = value;
        Some(())
    }

    /// `ThreadConfig[thread].CFG_STATE_ID_StateID`: which `Config` state the thread uses.
    pub fn state_id(&self, thread: usize) -> usize {
        self.thread.get(thread).map_or(0, |t| {
            cfg_fields::CFG_STATE_ID_StateID.extract(t[0] as u32) as usize
        })
    }

    /// A field as seen by `thread`: `ThreadConfig[thread].Field` for thread fields,
    /// `Config[StateID].Field` for the others. Fields from the generated table are always in
    /// range; a thread index above 2 reads as zero.
    pub fn get(&self, thread: usize, f: CfgField) -> u32 {
        let word = match f.space {
            Space::Thread => self.thread_word(thread, f.addr32).map_or(0, u32::from),
            Space::Config => self.word(self.state_id(thread), f.addr32).unwrap_or(0),
        };
        f.extract(word)
    }

    /// `Config[state].Field` regardless of thread.
    pub fn get_in(&self, state: usize, f: CfgField) -> u32 {
        f.extract(self.word(state, f.addr32).unwrap_or(0))
    }

    /// Sets a field as `thread` would see it (read-modify-write of its word; for preloading
    /// from tests and programs).
    pub fn set(&mut self, thread: usize, f: CfgField, value: u32) {
        match f.space {
            Space::Thread => {
                let old = self.thread_word(thread, f.addr32).unwrap_or(0) as u32;
                let _ = self.write_thread_word(thread, f.addr32, f.insert(old, value) as u16);
            }
            Space::Config => {
                let s = self.state_id(thread);
                let old = self.word(s, f.addr32).unwrap_or(0);
                let _ = self.write_word_plain(s, f.addr32, f.insert(old, value));
            }
        }
    }

    /// `Config[state]` words, for dumps and the RISC-V window.
    pub fn state_words(&self, state: usize) -> Option<&[u32; CFG_WORDS]> {
        self.config.get(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::cfg_fields as f;

    #[test]
    fn config_field_reads_from_the_threads_state() {
        let mut c = ConfigSpace::new();
        c.write_word(
            1,
            f::ALU_FORMAT_SPEC_REG0_SrcA.addr32,
            0x5 << f::ALU_FORMAT_SPEC_REG0_SrcA.shamt,
        );
        assert_eq!(c.get(0, f::ALU_FORMAT_SPEC_REG0_SrcA), 0);
        // SETC16 CFG_STATE_ID: thread 0 switches to state 1.
        c.write_thread_word(0, f::CFG_STATE_ID_StateID.addr32, 1);
        assert_eq!(c.state_id(0), 1);
        assert_eq!(c.get(0, f::ALU_FORMAT_SPEC_REG0_SrcA), 5);
        assert_eq!(c.get(1, f::ALU_FORMAT_SPEC_REG0_SrcA), 0);
    }

    #[test]
    fn global_config_words_are_written_in_both_states() {
        let mut c = ConfigSpace::new();
        c.write_word(0, GLOBAL_CFGREG_BASE_ADDR32 + 2, 0x1234);
        assert_eq!(c.word(1, GLOBAL_CFGREG_BASE_ADDR32 + 2), Some(0x1234));
        c.write_word(1, GLOBAL_CFGREG_BASE_ADDR32 - 1, 7);
        assert_eq!(c.word(0, GLOBAL_CFGREG_BASE_ADDR32 - 1), Some(0));
    }

    #[test]
    fn state_reset_en_write_clears_the_non_global_words_of_its_state() {
        let mut c = ConfigSpace::new();
        c.write_word(0, 10, 1);
        c.write_word(1, 10, 2);
        c.write_word(0, GLOBAL_CFGREG_BASE_ADDR32, 3);
        c.write_word(0, f::STATE_RESET_EN.addr32, 0);
        assert_eq!(c.word(0, 10), Some(0));
        assert_eq!(c.word(1, 10), Some(2));
        assert_eq!(c.word(0, GLOBAL_CFGREG_BASE_ADDR32), Some(3));
    }

    #[test]
    fn config_indices_outside_the_space_are_rejected() {
        let mut c = ConfigSpace::new();
        assert_eq!(c.word(2, 0), None);
        assert_eq!(c.word(0, CFG_WORDS), None);
        assert_eq!(c.write_word(0, CFG_WORDS, 1), None);
        assert_eq!(c.write_thread_word(3, 0, 1), None);
        assert_eq!(c.thread_word(0, THD_STATE_SIZE), None);
    }

    #[test]
    fn cfg_field_insert_and_extract() {
        let fld = f::DEST_ACCESS_CFG_remap_addrs;
        let mut c = ConfigSpace::new();
        c.set(2, fld, 1);
        assert_eq!(c.get(2, fld), 1);
        assert_eq!(c.word(0, fld.addr32), Some(fld.mask & (1 << fld.shamt)));
        assert_eq!(CfgField::by_name("DEST_ACCESS_CFG_remap_addrs"), Some(fld));
        assert_eq!(CfgField::by_name("NO_SUCH_FIELD"), None);
    }
}
