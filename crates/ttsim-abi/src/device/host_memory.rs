//! Time and host memory of the PCIe face: the clock a `libttsim_clock` call owes, and the
//! chip's requests to host memory translated through the outbound iATU into calls of the host's
//! DMA callbacks.
use super::*;

impl Device {
    /// Run up to `clock_remaining` cycles; stop early when the backend does (host requests).
    pub fn clock_step(&mut self) -> Result<(), BackendError> {
        let now = self.cycle();
        self.clock_to(now.saturating_add(u64::from(self.clock_remaining)))
    }

    /// Runs the owed cycles up to cycle `to` at most (the backend may stop short to wait for
    /// its host).
    pub fn clock_to(&mut self, to: u64) -> Result<(), BackendError> {
        let room = to.saturating_sub(self.cycle());
        let asked = (u64::from(self.clock_remaining).min(room)) as u32;
        if asked == 0 {
            return Ok(());
        }
        let ran = self.backend.clock(asked).map_err(|e| self.stamp(e))?;
        if ran > asked {
            return Err(self.stamp(err(
                ErrorKind::Internal,
                Where::default(),
                format!("backend ran {ran} cycles when asked for {asked}"),
            )));
        }
        self.clock_remaining -= ran;
        Ok(())
    }

    /// Whether anything is left for [`Device::host_calls`], the warnings or the clock: when not,
    /// an entry point returns straight after its operation (the common case of tt-umd's
    /// polling: three TLB writes, a read and a clock, none of which the chip answers with a
    /// host request).
    pub fn work_pending(&self) -> bool {
        self.clock_remaining > 0
            || !self.warnings.is_empty()
            || self.backend.host_requests_pending()
    }

    /// Take the backend's host requests and translate them into callback calls.
    ///
    /// A request (or part) with no enabled iATU region, or with no callback to serve it, is a
    /// `HostMemory` error in strict mode; in permissive mode it is logged and a write is
    /// dropped, a read gets all-ones. Called with the callbacks' presence.
    pub fn host_calls(
        &mut self,
        have_rd: bool,
        have_wr: bool,
    ) -> Result<Vec<HostCall>, BackendError> {
        let mut reqs = Vec::new();
        self.backend.take_host_requests(&mut reqs);
        let mut calls = Vec::new();
        let mut problem: Option<String> = None;
        for r in reqs {
            match r {
                HostRequest::Write { addr, data } => {
                    for p in self.iatu.translate(addr, data.len()) {
                        match p.paddr {
                            Some(paddr) if have_wr => calls.push(HostCall::Write {
                                paddr,
                                data: data[p.at..p.at + p.len].to_vec(),
                            }),
                            Some(_) => {
                                problem.get_or_insert(format!("chip wrote host memory at window offset {:#x}, but no write callback is set", addr + p.at as u64));
                            }
                            None => {
                                problem.get_or_insert(format!("chip wrote {} bytes at NoC-to-host offset {:#x}, which no enabled iATU region maps", p.len, addr + p.at as u64));
                            }
                        };
                    }
                }
                HostRequest::Read { tag, addr, len } => {
                    let mut pieces = self.iatu.translate(addr, len as usize);
                    if let Some(p) = pieces.iter().find(|p| p.paddr.is_none()) {
                        problem.get_or_insert(format!("chip read {} bytes at NoC-to-host offset {:#x}, which no enabled iATU region maps", p.len, addr + p.at as u64));
                    }
                    if !have_rd {
                        problem.get_or_insert(format!("chip read host memory at window offset {addr:#x}, but no read callback is set"));
                        pieces.iter_mut().for_each(|p| p.paddr = None);
                    }
                    self.outstanding_reads.push((tag, len as usize));
                    calls.push(HostCall::Read {
                        tag,
                        len: len as usize,
                        pieces,
                    });
                }
            }
        }
        if let Some(msg) = problem {
            match self.mode {
                MmioMode::Strict => {
                    self.outstanding_reads.clear();
                    return Err(self.stamp(err(ErrorKind::HostMemory, Where::default(), msg)));
                }
                MmioMode::Permissive => self.warnings.push(format!(
                    "{msg} (permissive: writes dropped, reads all-ones)"
                )),
            }
        }
        Ok(calls)
    }

    /// Hand the data of a host read back to the backend.
    pub fn complete_host_read(&mut self, tag: u64, data: &[u8]) -> Result<(), BackendError> {
        self.outstanding_reads.retain(|&(t, _)| t != tag);
        self.backend
            .complete_host_read(tag, data)
            .map_err(|e| self.stamp(e))
    }

    /// Answer every outstanding host read with all-ones (a callback did not return); returns
    /// how many there were.
    pub fn abandon_host_reads(&mut self) -> Result<usize, BackendError> {
        let reads = std::mem::take(&mut self.outstanding_reads);
        for &(tag, len) in &reads {
            self.backend
                .complete_host_read(tag, &vec![0xFF; len])
                .map_err(|e| self.stamp(e))?;
        }
        Ok(reads.len())
    }
}
