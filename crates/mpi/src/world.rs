//! The [`Exchange`] between the processes of `MPI_COMM_WORLD`: each step, every process's
//! [`Report`] to every process (`MPI_Allgather` of the sizes, then `MPI_Allgatherv` of the
//! encoded reports).
use bhemu_chip::system::lockstep::{Exchange, Report};
use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

use crate::codec;

pub struct World {
    comm: SimpleCommunicator,
}

impl World {
    pub fn new(comm: SimpleCommunicator) -> World {
        World { comm }
    }
    pub fn rank(&self) -> usize {
        self.comm.rank() as usize
    }
    pub fn size(&self) -> usize {
        self.comm.size() as usize
    }
}

impl Exchange for World {
    fn exchange(&mut self, mine: Report) -> Result<Vec<Report>, String> {
        let bytes = codec::encode(&mine);
        let len = Count::try_from(bytes.len()).map_err(|_| {
            format!(
                "a step report of {} bytes is too large for MPI",
                bytes.len()
            )
        })?;
        let mut lens = vec![0 as Count; self.size()];
        self.comm.all_gather_into(&len, &mut lens[..]);
        let mut displs = Vec::with_capacity(lens.len());
        let mut total: Count = 0;
        for l in &lens {
            displs.push(total);
            total = total
                .checked_add(*l)
                .ok_or_else(|| "the step reports together are too large for MPI".to_string())?;
        }
        let mut all = vec![0u8; total as usize];
        {
            let mut part = PartitionMut::new(&mut all[..], &lens[..], &displs[..]);
            self.comm.all_gather_varcount_into(&bytes[..], &mut part);
        }
        lens.iter()
            .zip(&displs)
            .enumerate()
            .map(|(p, (l, d))| {
                let s = &all[*d as usize..(*d + *l) as usize];
                codec::decode(s).map_err(|e| format!("process {p}: {e}"))
            })
            .collect()
    }
}
