use bhemu_tensix::matrix::datapath::*;
fn conv(v: u32) -> u32 {
    ((v >> 18) << 18) | ((v & 0x3ff) << 8) | ((v >> 10) & 0xff)
}
fn prec(p: &str) -> Precision {
    match p {
        "0" => Precision::Tf32,
        "1" => Precision::Bf16,
        _ => Precision::Fp16,
    }
}
#[test]
fn xcheck() {
    let Ok(text) = std::fs::read_to_string("/tmp/xcheck/out.txt") else {
        return;
    };
    let mut bad = [0u32; 3];
    let mut n = [0u32; 3];
    for line in text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        let h = |s: &str| u32::from_str_radix(s, 16).unwrap();
        let mode: u32 = f[1].parse().unwrap();
        let m = AccMode {
            wide: mode & 1 != 0,
            e8: mode & 2 == 0,
        };
        let (pa, pb) = (prec(f[2]), prec(f[3]));
        let (got, want, k) = match f[0] {
            "A" => {
                let (a, b, d) = (conv(h(f[4])), conv(h(f[5])), h(f[6]));
                let acc = f[7] == "1";
                let t = add_term(Operand::read(a, pa, true), Operand::read(b, pb, true), m, 0);
                (accumulate([t], if acc { d } else { 0 }, m), h(f[8]), 0)
            }
            "M" => {
                let (a, b, d) = (conv(h(f[4])), conv(h(f[5])), h(f[6]));
                let ph: u32 = f[7].parse().unwrap();
                let t = product_term(
                    Operand::read(a, pa, true),
                    Operand::read(b, pb, true),
                    ph,
                    product_adj(m, ph),
                );
                (accumulate([t], d, m), h(f[8]), 1)
            }
            _ => {
                let d = h(f[4]);
                let ph: u32 = f[5].parse().unwrap();
                let want = h(f[6]);
                let adj = product_adj(m, ph);
                let p: Vec<Product> = (0..16)
                    .map(|k| {
                        let a = Operand::read(conv(h(f[7 + 2 * k])), pa, true);
                        let b = Operand::read(conv(h(f[8 + 2 * k])), pb, true);
                        Product::of(a, b, ph, adj)
                    })
                    .collect();
                let g = [group_term(&p[..8]), group_term(&p[8..])];
                (accumulate(g, d, m), want, 2)
            }
        };
        n[k] += 1;
        if got != want {
            bad[k] += 1;
            if bad[k] <= 5 {
                eprintln!("{line}\n  got {got:08x} want {want:08x}");
            }
        }
    }
    eprintln!(
        "ELWADD {}/{} bad, ELWMUL {}/{} bad, MVMUL {}/{} bad",
        bad[0], n[0], bad[1], n[1], bad[2], n[2]
    );
    assert_eq!(bad, [0, 0, 0]);
}
