//! What `bhemu run` knows before any simulator runs: the program description parsed, its
//! kernels loaded, circular buffers placed, buffers laid out in DRAM bank 0, runtime args
//! resolved per tile and the input bytes of every tile. The in-process chip and the
//! differential runner (`differential.rs`) both start from this, so both feed the same bytes.
use super::*;

/// A program ready to run.
pub(super) struct Prepared {
    pub(super) p: Program,
    pub(super) names: Vec<String>,
    /// The description's directory (input and reference files are relative to it).
    pub(super) base: PathBuf,
    pub(super) l: Layout,
    pub(super) math: Math,
    pub(super) in_formats: Vec<Format>,
    pub(super) out_formats: Vec<Format>,
    pub(super) refs: Vec<Option<Reference>>,
    /// The tiles, row by row (y, then x): the chip's own order, which tile indices follow.
    pub(super) tiles: Vec<bhemu_noc::NodeId>,
    pub(super) fw: Firmware,
    pub(super) coords: Vec<(u8, u8)>,
    /// Per tile (same order): what it runs, and each input's bytes.
    pub(super) programs: Vec<TileProgram>,
    pub(super) inputs: Vec<Vec<Vec<u8>>>,
}

pub(super) struct Layout {
    /// Per buffer name: (address offset within a tile's region, pages, page size).
    pub(super) buffers: BTreeMap<String, (u64, u32, u32)>,
    pub(super) per_tile: u64,
}

pub(super) fn layout(p: &Program) -> Result<Layout, CliError> {
    let mut buffers = BTreeMap::new();
    let mut off = 0u64;
    for (kind, list) in [("input", &p.input), ("output", &p.output)] {
        for (i, b) in list.iter().enumerate() {
            if b.pages == 0 || b.page_size == 0 || b.page_size % 16 != 0 {
                return Err(CliError::new(format!(
                    "{kind}[{i}] ({}): pages must be positive and page_size a positive multiple of 16",
                    b.name
                )));
            }
            if buffers
                .insert(b.name.clone(), (off, b.pages, b.page_size))
                .is_some()
            {
                return Err(CliError::new(format!(
                    "{kind}[{i}].name: '{}' is used twice",
                    b.name
                )));
            }
            off += u64::from(b.pages) * u64::from(b.page_size);
            off = off.next_multiple_of(64);
        }
    }
    Ok(Layout {
        buffers,
        per_tile: off.max(64),
    })
}

impl Layout {
    /// Tile `tile`'s region in DRAM bank 0.
    pub(super) fn region(&self, tile: usize) -> u64 {
        DRAM_BASE + self.per_tile * tile as u64
    }

    /// Where buffer `name` of tile `tile` starts in DRAM bank 0 (0 for an unknown name, which
    /// `layout` never hands out).
    pub(super) fn input_addr(&self, tile: usize, name: &str) -> u64 {
        self.region(tile) + self.buffers.get(name).map_or(0, |b| b.0)
    }
}

fn resolve_arg(
    a: &Arg,
    field: &str,
    l: &Layout,
    tile: usize,
    xy: (u8, u8),
) -> Result<u32, CliError> {
    let name = match a {
        Arg::Int(v) => return Ok(*v),
        Arg::Name(n) => n.as_str(),
    };
    let region = l.region(tile);
    let value = match name {
        "dram_x" => Some(u64::from(DRAM_X)),
        "dram_y" => Some(u64::from(DRAM_Y)),
        "tile_index" => Some(tile as u64),
        "tile_x" => Some(u64::from(xy.0)),
        "tile_y" => Some(u64::from(xy.1)),
        _ => match name.split_once('.') {
            Some((b, "pages")) => l.buffers.get(b).map(|x| u64::from(x.1)),
            Some((b, "page_size")) => l.buffers.get(b).map(|x| u64::from(x.2)),
            Some(_) => None,
            None => l.buffers.get(name).map(|x| region + x.0),
        },
    };
    let v = value.ok_or_else(|| {
        CliError::new(format!(
            "{field}: '{name}' is not a number, dram_x, dram_y, tile_index, tile_x, tile_y, a buffer name, NAME.pages or NAME.page_size"
        ))
    })?;
    u32::try_from(v)
        .map_err(|_| CliError::new(format!("{field}: '{name}' = {v} does not fit in 32 bits")))
}

fn load_kernel(
    kit: &Path,
    name: &str,
    core: Core,
    field: &str,
) -> Result<Arc<KernelImage>, CliError> {
    let file = kit
        .join(name)
        .join(format!("{}.elf", core.name().to_lowercase()));
    let img = ElfImage::read(&file).map_err(|e| {
        CliError::new(format!(
            "{field}: {e} (build the kit with scripts/kernel-kit/build.sh)"
        ))
    })?;
    Ok(Arc::new(
        KernelImage::from_elf(core, &img).map_err(|e| CliError::new(format!("{field}: {e}")))?,
    ))
}

/// Parses, loads and lays out the program of `a`; runs nothing.
pub(super) fn prepare(a: &RunArgs) -> Result<Prepared, CliError> {
    let (p, base) = read_program(a)?;
    let (kernels, names) = load_kernels(&p)?;
    let cbs = place_cbs(&p)?;
    let l = layout(&p)?;
    let math = p.math.parse()?;
    let in_formats: Vec<Format> = p
        .input
        .iter()
        .enumerate()
        .map(|(i, b)| Format::parse(&b.format, &format!("input[{i}].format")))
        .collect::<Result<_, _>>()?;
    let out_formats: Vec<Format> = p
        .output
        .iter()
        .enumerate()
        .map(|(i, b)| Format::parse(&b.format, &format!("output[{i}].format")))
        .collect::<Result<_, _>>()?;
    let formats = (&in_formats[..], &out_formats[..]);
    let refs = (0..p.output.len())
        .map(|i| output_reference(&p, i, formats, &math))
        .collect::<Result<Vec<_>, _>>()?;
    // Tiles (in the chip's order: row by row, y then x), firmware, per-tile programs and inputs.
    let mut tiles =
        grid::parse_tiles(&p.tiles).map_err(|e| CliError::new(format!("tiles: {e}")))?;
    tiles.sort_by_key(|n| (n.y, n.x));
    let fw = Firmware::load(&p.firmware).map_err(|e| {
        CliError::new(format!(
            "firmware: {e} (run scripts/fetch-ttnn.sh to fetch the ttnn 0.81.1 firmware)"
        ))
    })?;
    let coords: Vec<(u8, u8)> = tiles.iter().map(|n| (n.x, n.y)).collect();
    let mut programs = Vec::new();
    let mut inputs: Vec<Vec<Vec<u8>>> = Vec::new();
    for (ti, &xy) in coords.iter().enumerate() {
        inputs.push(tile_inputs(a, &p, &in_formats, &base, ti)?);
        programs.push(tile_program(&p, &l, &kernels, &cbs, ti, xy)?);
    }
    Ok(Prepared {
        p,
        names,
        base,
        l,
        math,
        in_formats,
        out_formats,
        refs,
        tiles,
        fw,
        coords,
        programs,
        inputs,
    })
}

/// The program description of `a`, with the command line's overrides (kit, firmware, tiles),
/// and its directory.
fn read_program(a: &RunArgs) -> Result<(Program, PathBuf), CliError> {
    let text = std::fs::read_to_string(&a.program)
        .map_err(|e| CliError::new(format!("{}: {e}", a.program.display())))?;
    let p: Program = toml::from_str(&text).map_err(|e| {
        let msg = e.message().to_string();
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].lines().count().max(1));
        CliError::new(match line {
            Some(l) => format!("{}:{l}: {msg}", a.program.display()),
            None => format!("{}: {msg}", a.program.display()),
        })
    })?;
    let base = a.program.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut p = p;
    if let Some(k) = &a.kit {
        p.kit = k.clone();
    }
    if let Some(f) = &a.firmware {
        p.firmware = f.clone();
    }
    if let Some(t) = &a.tiles {
        p.tiles = t.clone();
    }

    Ok((p, base))
}

/// The kernels the description names, loaded from the kit (the compute kernel once per
/// TRISC), and their names for the report.
fn load_kernels(p: &Program) -> Result<(Vec<Arc<KernelImage>>, Vec<String>), CliError> {
    let mut kernels: Vec<Arc<KernelImage>> = Vec::new();
    let mut names = Vec::new();
    if let Some(n) = &p.kernels.brisc {
        kernels.push(load_kernel(&p.kit, n, Core::Brisc, "kernels.brisc")?);
        names.push(format!("brisc={n}"));
    }
    if let Some(n) = &p.kernels.ncrisc {
        kernels.push(load_kernel(&p.kit, n, Core::Ncrisc, "kernels.ncrisc")?);
        names.push(format!("ncrisc={n}"));
    }
    if let Some(n) = &p.kernels.compute {
        for c in [Core::Trisc0, Core::Trisc1, Core::Trisc2] {
            kernels.push(load_kernel(&p.kit, n, c, "kernels.compute")?);
        }
        names.push(format!("compute={n}"));
    }
    if kernels.is_empty() {
        return Err(CliError::new(
            "kernels: name at least one of brisc, ncrisc, compute",
        ));
    }

    Ok((kernels, names))
}

/// The circular buffers, placed in L1 one after the other from `DATA_BASE` (64-byte aligned).
fn place_cbs(p: &Program) -> Result<Vec<LocalCb>, CliError> {
    let mut cbs = Vec::new();
    let mut addr = DATA_BASE;
    for (i, c) in p.cb.iter().enumerate() {
        Format::parse(&c.format, &format!("cb[{i}].format"))?;
        let cb = LocalCb {
            index: c.index,
            addr,
            pages: c.pages,
            page_size: c.page_size,
        };
        addr = addr.saturating_add(cb.size()).next_multiple_of(64);
        cbs.push(cb);
    }
    Ok(cbs)
}

/// Output `i`'s reference, checked against the inputs it names: no block-float operands or
/// output, whole matmul blocks, element counts that match.
fn output_reference(
    p: &Program,
    i: usize,
    (in_formats, out_formats): (&[Format], &[Format]),
    math: &Math,
) -> Result<Option<Reference>, CliError> {
    let o = &p.output[i];
    let field = format!("output[{i}].reference");
    let r = match (&o.reference, &o.file) {
        (Some(r), None) => {
            let r = parse_reference(r, &field)?;
            let bfp_operand = r.operands.iter().any(|op| {
                p.input
                    .iter()
                    .position(|b| &b.name == op)
                    .is_some_and(|j| in_formats[j].is_bfp())
            });
            if out_formats[i].is_bfp() || bfp_operand {
                return Err(CliError::new(format!(
                    "{field}: references are not computed for block-float formats \
                         (compare with --reference instead)"
                )));
            }
            let elems = u64::from(o.pages) * u64::from(o.page_size) / out_formats[i].bytes() as u64;
            let [mt, kt, nt] = math.mkn.map(|d| d as u64);
            if r.op == "matmul" && !elems.is_multiple_of(1024 * mt * nt) {
                return Err(CliError::new(format!(
                        "{field}: matmul needs whole {mt}x{nt}-tile blocks of 32x32 tiles; the output has {elems} elements"
                    )));
            }
            let blocks = elems / (1024 * mt * nt);
            for (k, op) in r.operands.iter().enumerate() {
                let j = p
                    .input
                    .iter()
                    .position(|b| &b.name == op)
                    .ok_or_else(|| CliError::new(format!("{field}: no input named '{op}'")))?;
                let want = u64::from(p.input[j].pages) * u64::from(p.input[j].page_size)
                    / in_formats[j].bytes() as u64;
                let have = match (r.op.as_str(), k) {
                    ("matmul", 0) => blocks * mt * kt * 1024,
                    ("matmul", _) => blocks * kt * nt * 1024,
                    _ => elems,
                };
                if r.op == "matmul"
                    && math.mkn != [1, 1, 1]
                    && (in_formats[j] != Format::Bf16 || out_formats[i] != Format::Bf16)
                {
                    return Err(CliError::new(format!(
                            "{field}: math.matmul_tiles other than [1, 1, 1] needs bf16 inputs and output"
                        )));
                }
                if want != have {
                    return Err(CliError::new(format!(
                            "{field}: input '{op}' has {want} elements, {have} expected from the output"
                        )));
                }
            }
            Some(r)
        }
        (None, Some(_)) | (None, None) => None,
        (Some(_), Some(_)) => {
            return Err(CliError::new(format!(
                "output[{i}]: give reference or file, not both"
            )))
        }
    };
    Ok(r)
}

/// Tile `ti`'s input bytes: each input's file or fill, or a random stream of its own
/// (determined by the seed and the tile).
fn tile_inputs(
    a: &RunArgs,
    p: &Program,
    in_formats: &[Format],
    base: &Path,
    ti: usize,
) -> Result<Vec<Vec<u8>>, CliError> {
    let mut mine = Vec::new();
    for (i, b) in p.input.iter().enumerate() {
        let mut data = input_bytes(b, i, in_formats[i], base)?;
        if b.random.is_some() {
            // A different stream per tile, still determined by the seed.
            let seed = b
                .random
                .unwrap_or(0)
                .wrapping_add(a.seed.wrapping_mul(104_729))
                .wrapping_add(ti as u32 * 7919);
            // `random_bits`: the base exponents are shared by the inputs of a tile.
            let shared = a.seed.wrapping_mul(104_729).wrapping_add(ti as u32 * 7919);
            let bits = b.random_bits.then_some(shared);
            data = random_data(in_formats[i], seed, data.len(), bits);
        }
        mine.push(data);
    }
    Ok(mine)
}

/// What tile `ti` at `xy` runs: the kernels, CBs and each core's runtime args.
fn tile_program(
    p: &Program,
    l: &Layout,
    kernels: &[Arc<KernelImage>],
    cbs: &[LocalCb],
    ti: usize,
    xy: (u8, u8),
) -> Result<TileProgram, CliError> {
    let mut tp = TileProgram {
        x: xy.0,
        y: xy.1,
        kernels: kernels.to_vec(),
        cbs: cbs.to_vec(),
        ..TileProgram::default()
    };
    for (procs, list, field) in [
        (&[0usize][..], &p.args.brisc, "args.brisc"),
        (&[1usize][..], &p.args.ncrisc, "args.ncrisc"),
        (&[2usize, 3, 4][..], &p.args.compute, "args.compute"),
    ] {
        let vals = list
            .iter()
            .enumerate()
            .map(|(k, a)| resolve_arg(a, &format!("{field}[{k}]"), l, ti, xy))
            .collect::<Result<Vec<u32>, _>>()?;
        for &pi in procs {
            tp.args[pi] = vals.clone();
        }
    }
    tp.validate()
        .map_err(|e| CliError::new(format!("cb: {e}")))?;
    Ok(tp)
}
