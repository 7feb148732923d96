# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

## 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

!# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

## 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

C# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

P# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

U# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

:# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

## 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

D# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

D# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

C# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

x# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

## 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

P# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

## 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

P# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

N# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

M# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

S# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

M# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

3# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

## 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

8# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

4# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

8# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

:# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

B# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

I# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

N# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

8# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

S# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

M# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

4# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

j# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

q# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

2# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

?# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

3# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

3# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

j# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

<# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

<# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

'# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

P# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

Y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

'# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

j# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

j# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

8# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

<# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

<# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

2# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

<# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

<# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

## 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

'# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

5# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

+# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

3# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

x# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

P# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

Y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

:# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

?# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

## 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

2# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

:# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

4# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

+# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

4# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

B# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

I# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

N# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

4# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

S# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

M# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

j# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

q# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

2# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

B# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

I# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

N# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

8# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

j# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

q# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

2# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

4# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

+# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

8# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

?# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

3# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

j# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

j# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

<# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

<# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

'# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

P# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

Y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

'# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

:# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

'# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

:# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

^# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

+# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

'# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

,# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

2# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

x# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

8# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

P# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

Y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

b# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

?# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

## 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

3# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

P# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

B# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

I# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

N# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

3# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

S# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

M# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

j# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

q# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

2# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

?# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

3# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

## 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

4# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

C# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

U# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

D# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

A# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

:# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

B# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

I# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

N# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

S# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

M# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

q# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

2# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

># 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

=# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

?# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

[# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

0# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

]# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

&# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

g# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

q# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

p# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

y# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

k# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

_# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

m# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

w# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

h# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

f# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

s# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

?# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

:# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

(# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

a# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

l# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

-# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

n# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

1# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

 # 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

$# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

T# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

/# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

.# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

o# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

u# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

)# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

"# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

v# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

e# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

r# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

d# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

i# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

c# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

t# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"


# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

