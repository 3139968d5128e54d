//! `BHEMU_GDB=PORT`: libttsim's gdb stub, served from within `libttsim_clock` calls
//! (docs/gdb.md "libttsim.so"). The host side calls the library's exported functions the way
//! tt-umd does; a second thread plays gdb with a minimal client of the remote serial protocol
//! (packets `$data#checksum`, acknowledged with `+`; GDB manual, "Remote Protocol").
//!
//! One test per file: the library is a process-wide singleton and the knob is an environment
//! variable.
use std::ffi::c_void;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use bhemu_chip::host::{SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN};
use ttsim::ffi::*;

/// RV32I encodings (The RISC-V Instruction Set Manual, Volume I, "RV32I Base Integer
/// Instruction Set"), written out here independently of bhemu's encoder.
fn addi(rd: u32, rs1: u32, imm: i32) -> u32 {
    ((imm as u32 & 0xFFF) << 20) | (rs1 << 15) | (rd << 7) | 0x13
}
fn sw(rs2: u32, rs1: u32, imm: u32) -> u32 {
    ((imm >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (2 << 12) | ((imm & 0x1F) << 7) | 0x23
}
/// `jal x0, -8`: imm[20|10:1|11|19:12] of -8.
const JAL_X0_MINUS_8: u32 = 0xFF9F_F06F;

const A0: u32 = 10;
const A1: u32 = 11;

/// BRISC's program at its reset pc 0: `a0 = 42; [0x100] = a0; loop { a1 += 1; [0x104] = a1 }`.
fn program() -> Vec<u8> {
    [
        addi(A0, 0, 42),
        sw(A0, 0, 0x100),
        addi(A1, A1, 1), // 0x8: the breakpoint
        sw(A1, 0, 0x104),
        JAL_X0_MINUS_8,
    ]
    .iter()
    .flat_map(|w| w.to_le_bytes())
    .collect()
}

struct Rsp(TcpStream);

impl Rsp {
    fn byte(&mut self) -> u8 {
        let mut b = [0u8];
        self.0.read_exact(&mut b).expect("read from the stub");
        b[0]
    }
    /// Sends one packet and waits for its `+`.
    fn send(&mut self, data: &str) {
        let sum = data.bytes().fold(0u8, |a, b| a.wrapping_add(b));
        write!(self.0, "${data}#{sum:02x}").expect("write to the stub");
        assert_eq!(self.byte(), b'+', "ack of {data}");
    }
    /// Receives one packet, acknowledges it, returns its data.
    fn recv(&mut self) -> String {
        while self.byte() != b'$' {}
        let mut data = Vec::new();
        loop {
            match self.byte() {
                b'#' => break,
                b => data.push(b),
            }
        }
        let _checksum = [self.byte(), self.byte()];
        self.0.write_all(b"+").expect("ack");
        // Run-length encoding: `X*n` is X followed by n - 29 more copies of it.
        let mut out: Vec<u8> = Vec::new();
        let mut i = 0;
        while i < data.len() {
            match (data[i], out.last().copied()) {
                (b'*', Some(prev)) if i + 1 < data.len() => {
                    out.resize(out.len() + usize::from(data[i + 1]) - 29, prev);
                    i += 2;
                }
                (b, _) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        String::from_utf8(out).expect("ascii packet")
    }
    fn ask(&mut self, data: &str) -> String {
        self.send(data);
        self.recv()
    }
}

/// Register `i` of a `g` reply (x0-x31 then pc, 32-bit little-endian hex each).
fn reg(g: &str, i: usize) -> u32 {
    u32::from_str_radix(&g[i * 8..i * 8 + 8], 16)
        .expect("hex")
        .swap_bytes()
}

/// gdb's side: registers before the first instruction, a breakpoint, continue, registers and
/// memory at the stop, detach. Returns the replies it checked.
fn play_gdb(port: u16) -> Vec<String> {
    let start = Instant::now();
    let conn = loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(c) => break c,
            Err(e) if start.elapsed() < Duration::from_secs(30) => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("cannot connect to the stub: {e}"),
        }
    };
    conn.set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let mut g = Rsp(conn);
    let mut seen = Vec::new();
    let stop = g.ask("?");
    assert!(stop.starts_with('T') || stop.starts_with('S'), "{stop}");
    assert_eq!(g.ask("Hg1"), "OK");
    let regs = g.ask("g");
    assert_eq!(regs.len(), 33 * 8, "{regs}");
    assert_eq!(reg(&regs, 32), 0, "BRISC has not run: pc is its reset pc");
    assert_eq!(
        g.ask("m100,4"),
        "00000000",
        "the chip does not run before gdb says continue"
    );
    assert_eq!(g.ask("Z0,8,4"), "OK");
    g.send("vCont;c");
    let stop = g.recv();
    assert!(stop.starts_with("T05"), "a breakpoint stop: {stop}");
    let regs = g.ask("g");
    assert_eq!(reg(&regs, A0 as usize), 42);
    assert_eq!(reg(&regs, A1 as usize), 0);
    assert_eq!(reg(&regs, 32), 8, "stopped before the instruction at 0x8");
    assert_eq!(g.ask("m100,4"), "2a000000");
    assert_eq!(g.ask("z0,8,4"), "OK");
    assert_eq!(g.ask("D"), "OK");
    seen.push(stop);
    seen
}

#[test]
fn libttsim_serves_gdb_from_the_clock_calls_and_runs_on_after_detach() {
    let port = {
        let l = TcpListener::bind(("127.0.0.1", 0)).expect("a free port");
        l.local_addr().expect("addr").port()
    };
    std::env::set_var("BHEMU_GDB", port.to_string());
    std::env::set_var("BHEMU_GDB_TILES", "1,2");
    std::env::set_var("BHEMU_HANG_CYCLES", "0");
    libttsim_init();
    let p = program();
    let reset = SOFT_RESET_BRISC_RUN.to_le_bytes();
    unsafe {
        libttsim_tile_wr_bytes(1, 2, 0, p.as_ptr().cast::<c_void>(), p.len() as u32);
        libttsim_tile_wr_bytes(
            1,
            2,
            u64::from(SOFT_RESET_ADDR),
            reset.as_ptr().cast::<c_void>(),
            4,
        );
    }
    let gdb = std::thread::spawn(move || play_gdb(port));
    // The first call waits for gdb and serves it until it detaches; the others run freely.
    for _ in 0..10 {
        libttsim_clock(1000);
    }
    let stops = gdb.join().expect("the gdb thread");
    assert_eq!(stops.len(), 1);
    assert!(!is_faulted());
    assert_eq!(with_backend(|b| b.cycle()), Some(10_000), "every clock ran");
    let mut word = [0u8; 4];
    unsafe { libttsim_tile_rd_bytes(1, 2, 0x104, word.as_mut_ptr().cast::<c_void>(), 4) };
    // docs/execution-model.md EM-2: one instruction per cycle for a hart that never stalls.
    // Cycles 0-1 run the first two instructions; the loop's store retires at cycles 3, 6, ...,
    // so 10 000 cycles hold (10 000 - 3 - 1) / 3 + 1 stores, the last storing its own count.
    let loops = u32::from_le_bytes(word);
    assert_eq!(
        loops,
        (10_000 - 3 - 1) / 3 + 1,
        "BRISC ran on after the detach"
    );
    libttsim_exit();
}
