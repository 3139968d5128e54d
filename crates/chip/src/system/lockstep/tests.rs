//! MC-11: sends arrive at exactly their due cycle, whatever the steps and threads.
use super::*;
use crate::system::SystemKind;

/// A chip that sends a register write on `channel` at each cycle of `sends`, answers every
/// arrival with a send of its own on the same channel while `echo` lasts, and records what
/// arrived when.
struct Mock {
    cycle: u64,
    channel: u8,
    sends: Vec<u64>,
    echo: u32,
    outbox: Vec<EthSend>,
    arrived: Vec<(u64, u32)>,
    /// At this cycle, wait for the host: no progress until `held` is cleared.
    pause_at: Option<u64>,
    held: bool,
    /// Fail when reaching this cycle.
    fail_at: Option<u64>,
}

impl Mock {
    fn new(channel: u8, sends: &[u64], echo: u32) -> Mock {
        Mock {
            cycle: 0,
            channel,
            sends: sends.to_vec(),
            echo,
            outbox: Vec::new(),
            arrived: Vec::new(),
            pause_at: None,
            held: false,
            fail_at: None,
        }
    }
    fn send(&mut self, value: u32) {
        self.outbox.push(EthSend {
            channel: self.channel,
            cycle: self.cycle,
            payload: Payload::Reg { dest: 0, value },
        });
    }
}

impl Stepped for Mock {
    type Error = ChipError;
    fn cycle(&self) -> u64 {
        self.cycle
    }
    fn run_to(&mut self, to: u64) -> Result<(), ChipError> {
        assert!(
            to >= self.cycle,
            "asked to go back from {} to {to}",
            self.cycle
        );
        while self.cycle < to {
            if self.pause_at.take_if(|p| *p == self.cycle).is_some() {
                self.held = true;
            }
            if self.held {
                return Ok(());
            }
            if self.fail_at == Some(self.cycle) {
                return Err(
                    ChipError::new(ErrorKind::Noc, "the mock fails here").at_cycle(self.cycle)
                );
            }
            let now = self.cycle;
            for k in 0..self.sends.len() {
                if self.sends[k] == now {
                    self.send(k as u32);
                }
            }
            self.cycle += 1;
        }
        Ok(())
    }
    fn take_sends(&mut self, out: &mut Vec<EthSend>) {
        out.append(&mut self.outbox);
    }
    fn deliver(&mut self, _channel: u8, p: &Payload) -> Result<(), ChipError> {
        let Payload::Reg { value, .. } = p else {
            panic!("the mocks send register writes only");
        };
        self.arrived.push((self.cycle, *value));
        if self.echo > 0 {
            self.echo -= 1;
            self.send(value + 100);
        }
        Ok(())
    }
    fn link_error(e: ChipError) -> ChipError {
        e
    }
}

/// A p300's two chips (chip 0 channel 2 ↔ chip 1 channel 9) run to `total` in calls of
/// `call` cycles on `threads` threads; what each chip received, and when.
fn arrivals(call: u64, threads: usize, pause: bool) -> Vec<Vec<(u64, u32)>> {
    let mut chips = vec![Mock::new(2, &[0, 5, 5, 1700], 3), Mock::new(9, &[5], 2)];
    if pause {
        chips[1].pause_at = Some(1003);
    }
    let mut wires = Wires::new(SystemKind::P300);
    let total = 6000;
    let mut now = 0;
    while now < total {
        now = (now + call).min(total);
        // A chip that waits for its host is served, and the run goes on, as the PCIe face does.
        while chips.iter().any(|c| c.cycle < now) {
            run(&mut wires, &mut chips, &[now, now], threads).expect("run");
            chips.iter_mut().for_each(|c| c.held = false);
        }
    }
    assert_eq!(wires.in_flight(), 0);
    chips.into_iter().map(|c| c.arrived).collect()
}

#[test]
fn mc11_a_send_arrives_at_its_issue_cycle_plus_the_link_latency() {
    let l = LINK_LATENCY;
    let want = vec![
        // Chip 0 hears chip 1's send of cycle 5, then chip 1's answers to its first two
        // arrivals (sent at L and 5 + L).
        vec![(5 + l, 0), (l + l, 100), (5 + l + l, 101)],
        // Chip 1 hears chip 0's sends of cycles 0, 5, 5 (in issue order) and 1700, and chip 0's
        // answers to what it heard (sent at 5 + L, 2L and 5 + 2L).
        vec![
            (l, 0),
            (5 + l, 1),
            (5 + l, 2),
            (5 + l + l, 100),
            (1700 + l, 3),
            (3 * l, 200),
            (5 + 3 * l, 201),
        ],
    ];
    for call in [1, 7, 999, 1000, 1001, 6000] {
        for threads in [1, 2] {
            for pause in [false, true] {
                assert_eq!(
                    arrivals(call, threads, pause),
                    want,
                    "calls of {call} cycles, {threads} threads, pause {pause}"
                );
            }
        }
    }
}

#[test]
fn mc11_no_chip_runs_past_the_slowest_plus_the_link_latency() {
    let mut chips = vec![Mock::new(2, &[], 0), Mock::new(9, &[], 0)];
    chips[1].pause_at = Some(10);
    let mut wires = Wires::new(SystemKind::P300);
    run(&mut wires, &mut chips, &[5000, 5000], 2).expect("run");
    assert_eq!(chips[1].cycle, 10, "chip 1 stopped for its host");
    assert_eq!(
        chips[0].cycle,
        10 + LINK_LATENCY,
        "chip 0 waits at the horizon"
    );
    chips[1].held = false;
    run(&mut wires, &mut chips, &[5000, 5000], 2).expect("run");
    assert_eq!((chips[0].cycle, chips[1].cycle), (5000, 5000));
}

#[test]
fn mc11_chips_share_the_threads_one_each_then_their_tiles() {
    assert_eq!(share_threads(1, 2), (1, 1));
    assert_eq!(share_threads(2, 2), (2, 1));
    assert_eq!(share_threads(16, 2), (2, 8));
    assert_eq!(share_threads(16, 32), (16, 1));
    assert_eq!(share_threads(0, 1), (1, 1));
}

/// Processes played by threads: each [`Exchange`] call puts its report in its slot, waits for
/// all, and takes every slot.
struct Table {
    slots: std::sync::Mutex<Vec<Report>>,
    all_in: std::sync::Barrier,
}

struct Process<'a> {
    rank: usize,
    table: &'a Table,
}

impl Exchange for Process<'_> {
    fn exchange(&mut self, mine: Report) -> Result<Vec<Report>, String> {
        self.table.slots.lock().map_err(|e| e.to_string())?[self.rank] = mine;
        self.table.all_in.wait();
        let all = self.table.slots.lock().map_err(|e| e.to_string())?.clone();
        self.table.all_in.wait();
        Ok(all)
    }
}

/// [`arrivals`] with each chip in a process of its own (a thread with its own links).
fn arrivals_apart(call: u64) -> Vec<Vec<(u64, u32)>> {
    let table = Table {
        slots: std::sync::Mutex::new(vec![Report::default(); 2]),
        all_in: std::sync::Barrier::new(2),
    };
    let chips = vec![Mock::new(2, &[0, 5, 5, 1700], 3), Mock::new(9, &[5], 2)];
    std::thread::scope(|s| {
        let handles: Vec<_> = chips
            .into_iter()
            .enumerate()
            .map(|(rank, chip)| {
                let table = &table;
                s.spawn(move || {
                    let mut chip = [chip];
                    let mut wires = Wires::new(SystemKind::P300);
                    let mut x = Process { rank, table };
                    let mut now = 0;
                    while now < 6000 {
                        now = (now + call).min(6000);
                        run_shared(&mut wires, &mut chip, &[rank as u32], &[now], 1, &mut x)
                            .expect("run");
                    }
                    let [chip] = chip;
                    chip.arrived
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("process"))
            .collect()
    })
}

#[test]
fn mc12_chips_in_two_processes_compute_what_one_process_does() {
    let one = arrivals(1000, 1, false);
    for call in [1, 999, 1000, 6000] {
        assert_eq!(arrivals_apart(call), one, "calls of {call} cycles");
    }
}

#[test]
fn mc12_a_failure_in_one_process_ends_the_run_in_every_process() {
    let table = Table {
        slots: std::sync::Mutex::new(vec![Report::default(); 2]),
        all_in: std::sync::Barrier::new(2),
    };
    let errors: Vec<ChipError> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2usize)
            .map(|rank| {
                let table = &table;
                s.spawn(move || {
                    let mut chip = [Mock::new(if rank == 0 { 2 } else { 9 }, &[], 0)];
                    if rank == 1 {
                        chip[0].fail_at = Some(1500);
                    }
                    let mut wires = Wires::new(SystemKind::P300);
                    let mut x = Process { rank, table };
                    run_shared(&mut wires, &mut chip, &[rank as u32], &[5000], 1, &mut x)
                        .expect_err("the run fails")
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("process"))
            .collect()
    });
    eprintln!("{}\n{}", errors[0], errors[1]);
    assert_eq!(
        errors[1].kind,
        ErrorKind::Noc,
        "the failing process reports its own error"
    );
    assert_eq!(errors[0].kind, ErrorKind::System);
    assert!(
        errors[0]
            .message
            .starts_with("process 1 of the system failed: ")
            && errors[0].message.contains("the mock fails here"),
        "{}",
        errors[0]
    );
}

#[test]
fn mc12_chips_ids_and_ends_must_pair_up() {
    let mut chips = vec![Mock::new(2, &[], 0), Mock::new(9, &[], 0)];
    let mut wires = Wires::new(SystemKind::P300);
    let e = run_shared(&mut wires, &mut chips, &[0], &[10, 10], 1, &mut Alone).unwrap_err();
    assert_eq!(e.kind, ErrorKind::System);
    assert_eq!(e.message, "lockstep: 2 chips with 1 ids and 2 end cycles");
    assert_eq!(chips[0].cycle, 0, "nothing ran");
}
