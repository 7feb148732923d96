# make_bundle.py: how data/ was made from ../shared/data (run from the repository root:
# python3 data/make_bundle.py). Copies the chosen structure files and alignments unchanged,
# keeps the first N sequences of the five large ColabFold A3Ms, writes data/manifest.tsv and
# the origin tables for data/README.md (to /tmp/bundle_*.md).
import csv, gzip, os, shutil, io
SRC='../shared/data'; DST='data'
chains=list(csv.DictReader(open(f'{SRC}/manifest_chains.tsv'),delimiter='\t'))
files={r['file']:r for r in csv.DictReader(open(f'{SRC}/manifest_files.tsv'),delimiter='\t')}
msas={r['file']:r for r in csv.DictReader(open(f'{SRC}/manifest_msas.tsv'),delimiter='\t')}
S=lambda n:'structures/'+n
structs=['102M.cif.gz','d1naza_.pdb.gz','8F9H.cif.gz','1PSM.cif.gz','2CRB.cif.gz','4ZEY.cif.gz','2Q2K.cif.gz','3U8V.cif.gz',
 '3ZEE.cif.gz','4I6P.cif.gz','721P.cif.gz','1BKD_l_b.pdb.gz','1HE8_l_b.pdb.gz','1LFD_l_b.pdb.gz','1LFD_r_b.pdb.gz',
 '1WQ1_l_b.pdb.gz','7A4D.cif.gz','1VFB_l_b.pdb.gz','1VFB_r_b.pdb.gz','3SZK_l_b.pdb.gz','3SZK_r_b.pdb.gz',
 '1GDR.pdb.gz','1LZH.pdb.gz','1UBI.pdb.gz','1ORC.pdb.gz','1QYS.pdb.gz','1YCR.pdb.gz','3IOL.pdb.gz','5Y2E.cif.gz','7RYE.cif.gz',
 '1GUU_A_domain.pdb.gz','1BXY_A_domain.pdb.gz','1CTF_A_domain.pdb.gz','2EVB_A_domain.pdb.gz','2O9S_A_domain.pdb.gz',
 '1T8K_A_domain.pdb.gz','1PTF_A_domain.pdb.gz','2X1B_A_domain.pdb.gz','3FYM_A_domain.pdb.gz','3MQI_A_domain.pdb.gz',
 '2ZXJ_A_domain.pdb.gz','3GVA_A_domain.pdb.gz','2H3L_A_domain.pdb.gz','2X9A_l_b.pdb.gz','2X9A_r_b.pdb.gz','1AY7_l_b.pdb.gz','1AY7_r_b.pdb.gz',
 '1GCQ_l_b.pdb.gz','1GCQ_r_b.pdb.gz','3PC8_l_b.pdb.gz','3PC8_r_b.pdb.gz','1KTZ_l_b.pdb.gz','1KTZ_r_b.pdb.gz',
 '1EFN_l_b.pdb.gz','1EFN_r_b.pdb.gz']
# alignment files: (source file, bundled name, rows kept or None for the file as is)
SUB={'msas/721P_A/721p-assembly1A_protein.a3m.gz':1500,
     'msas/7A4D_A/7a4d-assembly1A_protein.a3m.gz':700,'msas/7A4D_B/7a4d-assembly1B_protein.a3m.gz':700,
     'msas/7A4D_C/7a4d-assembly1C_protein.a3m.gz':700,'msas/7A4D_D/7a4d-assembly1D_protein.a3m.gz':700}
M={}
def add(pdb,ch,lst): M[(pdb,ch)]=lst
add('102M','A',['msas/102M_A/non_pairing.a3m.gz']); add('1NAZ','A',['msas/102M_A/non_pairing.a3m.gz']); add('8F9H','A',['msas/102M_A/non_pairing.a3m.gz'])
add('1PSM','A',['msas/1PSM_A/bfd_uniclust_hits.a3m.gz','msas/1PSM_A/mgnify_hits.sto.gz','msas/1PSM_A/uniref90_hits.sto.gz'])
add('2CRB','A',['msas/2CRB_A/bfd_uniclust_hits.a3m.gz','msas/2CRB_A/mgnify_hits.sto.gz','msas/2CRB_A/uniref90_hits.sto.gz'])
add('4ZEY','A',['msas/4ZEY_A/bfd_uniclust_hits.a3m.gz','msas/4ZEY_A/mgnify_hits.sto.gz','msas/4ZEY_A/uniref90_hits.sto.gz'])
for c in 'AB': add('2Q2K',c,['msas/2Q2K_A/bfd_uniclust_hits.a3m.gz','msas/2Q2K_A/mgnify_hits.sto.gz','msas/2Q2K_A/uniref90_hits.sto.gz'])
for c in 'AB': add('3U8V',c,['msas/3U8V_A/bfd_uniclust_hits.a3m.gz','msas/3U8V_A/mgnify_hits.sto.gz','msas/3U8V_A/uniref90_hits.sto.gz'])
add('3ZEE','A',['msas/3ZEE_A/bfd_uniclust_hits.a3m.gz','msas/3ZEE_A/mgnify_hits.sto.gz','msas/3ZEE_A/uniref90_hits.sto.gz'])
for c in 'AB': add('4I6P',c,['msas/4I6P_A/bfd_uniclust_hits.a3m.gz','msas/4I6P_A/mgnify_hits.sto.gz','msas/4I6P_A/uniref90_hits.sto.gz'])
P721=['msas/721P_A/721p-assembly1A_protein.a3m.gz']
for k in [('721P','A'),('721P','B'),('1BKD','R'),('1HE8','B'),('1LFD','B'),('1WQ1','R')]: add(*k,P721)
for c in 'ABCD': add('7A4D',c,[f'msas/7A4D_{c}/7a4d-assembly1{c}_protein.a3m.gz'])
add('1VFB','B',['msas/1A2Y_B/bfd_uniclust_hits.a3m.gz'])
add('3SZK','D',['msas/1A00_A/bfd_uniclust_hits.a3m.gz'])
def bname(f):
    if f in SUB:
        d,b=os.path.split(f); b=b.replace('.a3m.gz',f'.first{SUB[f]}.a3m.gz'); return d+'/'+b
    return f
if os.path.exists(f'{DST}/structures'): shutil.rmtree(f'{DST}/structures')
if os.path.exists(f'{DST}/msas'): shutil.rmtree(f'{DST}/msas')
os.makedirs(f'{DST}/structures',exist_ok=True)
for s in structs: shutil.copyfile(f'{SRC}/{S(s)}',f'{DST}/{S(s)}')
used=sorted({f for v in M.values() for f in v})
for f in used:
    os.makedirs(os.path.dirname(f'{DST}/{bname(f)}'),exist_ok=True)
    if f in SUB:
        n=SUB[f]; out=[]; recs=0
        for line in gzip.open(f'{SRC}/{f}','rt'):
            if line.startswith('>'):
                recs+=1
                if recs>n: break
            out.append(line)
        buf=io.BytesIO()
        with gzip.GzipFile(fileobj=buf,mode='wb',compresslevel=9,mtime=0,filename='') as g: g.write(''.join(out).encode())
        open(f'{DST}/{bname(f)}','wb').write(buf.getvalue())
    else: shutil.copyfile(f'{SRC}/{f}',f'{DST}/{f}')
rows=[]
for r in chains:
    fn=r['file'].split('/')[-1]
    if fn not in structs: continue
    m=M.get((r['pdb_id'],r['chain']),[])
    assert int(r['n_res'])<200, r
    rows.append([r['file'],r['chain'],r['pdb_id'],r['n_res'],';'.join(bname(x) for x in m),r['c30'],files[r['file']]['source_tag'],files[r['file']]['license']])
with open(f'{DST}/manifest.tsv','w') as o:
    o.write('file\tchain\tpdb_id\tn_res\tmsa\tc30\tsource\tlicense\n')
    for r in rows: o.write('\t'.join(r)+'\n')
# every chain with an MSA under 200 residues is in
need={(r['pdb_id'],r['chain']) for r in chains if r['msa'] and int(r['n_res'])<200}
have={(r[2],r[1]) for r in rows if r[4]}
print('missing MSA chains:',need-have, 'chains',len(rows),'with msa',len(have))
# README tables
srcs={}
for s in structs:
    f=files[S(s)]; srcs.setdefault((f['source_tag'],f['repo'].replace('+','/'),f['commit'][:12],f['license']),[]).append(s)
lines=[]
for (tag,repo,commit,lic),fl in sorted(srcs.items()):
    lines.append(f"| {', '.join(x.replace('.gz','') for x in sorted(fl))} | {tag}: {repo}{'@'+commit if commit else ''} | {lic} |")
mlines=[]
for f in used:
    r=msas[f]
    note=f"first {SUB[f]} of {r['n_seqs']} sequences" if f in SUB else f"as is ({r['n_seqs']} sequences)"
    mlines.append(f"| {bname(f)} | {r['repo'].replace('+','/')}@{r['commit'][:12]}: {r['source_path']} | {r['license']} | {note} |")
open('/tmp/bundle_structures.md','w').write('\n'.join(lines)+'\n')
open('/tmp/bundle_msas.md','w').write('\n'.join(mlines)+'\n')
