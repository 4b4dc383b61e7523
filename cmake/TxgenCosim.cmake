# Build-time RTL generation, verilation and co-simulation executables.
#
# The RTL is written by `txgen gen` while building, so Verilator's configure-time
# verilate() cannot be used: custom commands run `verilator --build` on the
# generated files instead (docs: /work/shared/toolflow.md, "Verilator from CMake").
#
# Target graph per configuration NAME (every consumer of a custom command's
# output goes through one custom target, so the Makefiles generator never runs
# a command twice in parallel; Ninja needs none of that but does not mind):
#   txgen_rtl_<block>_NAME  ->  txgen_vl_<top>_build  ->  cosim executable
#
# Needs: the `txgen` target, TXGEN_VERILATOR_EXECUTABLE, the runtime libraries
# txgen_verilated / txgen_verilated_sc and txgen_verif (verif/CMakeLists.txt).

# Aborts the configuration when the config file's "name" is not NAME: the
# module names, and so the Verilated class names, come from that field.
function(_txgen_check_config_name NAME CONFIG_PATH)
  file(READ ${CONFIG_PATH} text)
  string(JSON config_name ERROR_VARIABLE json_error GET "${text}" name)
  if(json_error OR NOT config_name STREQUAL NAME)
    message(FATAL_ERROR "${CONFIG_PATH}: \"name\" is '${config_name}', expected '${NAME}' ${json_error}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CONFIG_PATH})
endfunction()

# Generates the listed modules of BLOCK for configuration NAME into RTL_DIR by
# `txgen gen --block BLOCK`, once per (NAME, BLOCK): custom target
# txgen_rtl_<BLOCK>_<NAME>. Sets OUT_FILES (the .v files) and OUT_TARGET.
function(_txgen_block_rtl NAME CONFIG_PATH BLOCK RTL_DIR MODULES OUT_FILES OUT_TARGET)
  set(files)
  foreach(module ${MODULES})
    list(APPEND files ${RTL_DIR}/${module}.v)
  endforeach()
  set(target txgen_rtl_${BLOCK}_${NAME})
  if(NOT TARGET ${target})
    _txgen_check_config_name(${NAME} ${CONFIG_PATH})
    add_custom_command(
      OUTPUT ${files}
      BYPRODUCTS ${RTL_DIR}/files.f ${RTL_DIR}/manifest.json
      COMMAND $<TARGET_FILE:txgen> gen --config ${CONFIG_PATH} --block ${BLOCK} --out ${RTL_DIR}
      DEPENDS txgen ${CONFIG_PATH}
      COMMENT "Generating ${BLOCK} RTL for ${NAME}"
      VERBATIM)
    add_custom_target(${target} DEPENDS ${files})
    # for other consumers of the same RTL (cmake/TxgenSystemC.cmake)
    set_target_properties(${target} PROPERTIES TXGEN_RTL_FILES "${files}" TXGEN_CONFIG ${CONFIG_PATH})
  endif()
  set(${OUT_FILES} ${files} PARENT_SCOPE)
  set(${OUT_TARGET} ${target} PARENT_SCOPE)
endfunction()

# Generates the four bd_codec modules of a configuration once per NAME.
# Sets OUT_FILES (the .v files) and OUT_TARGET (the custom target to depend on).
function(txgen_bd_codec_rtl NAME CONFIG_PATH OUT_FILES OUT_TARGET)
  set(modules)
  foreach(module pack unpack comp decomp)
    list(APPEND modules bd_codec_${NAME}_${module})
  endforeach()
  _txgen_block_rtl(${NAME} ${CONFIG_PATH} bd_codec ${CMAKE_BINARY_DIR}/cosim/${NAME}/rtl "${modules}" files target)
  set(${OUT_FILES} ${files} PARENT_SCOPE)
  set(${OUT_TARGET} ${target} PARENT_SCOPE)
endfunction()

# txgen_verilate(TARGET TOP <module> MDIR <dir> SOURCES <.v...> AFTER <target> [SYSTEMC])
# Verilates TOP into MDIR (class V<TOP>, archive V<TOP>__ALL.a) and wraps it as
# INTERFACE library TARGET: include directory, archive and the matching runtime.
function(txgen_verilate TARGET)
  cmake_parse_arguments(ARG "SYSTEMC" "TOP;MDIR;AFTER" "SOURCES" ${ARGN})
  set(prefix V${ARG_TOP})
  set(archive ${ARG_MDIR}/${prefix}__ALL.a)
  if(ARG_SYSTEMC)
    set(mode --sc)
    set(runtime txgen_verilated_sc)
    set(flavour SystemC)
  else()
    set(mode --cc --trace-fst)
    set(runtime txgen_verilated)
    set(flavour C++)
    if(TXGEN_VERILATOR_THREADS GREATER 1)
      list(APPEND mode --threads ${TXGEN_VERILATOR_THREADS})
    endif()
  endif()
  # OPT_FAST=-O3 for the evaluation code: faster RTL on the wide designs
  # (docs/verification.md, "Co-simulation speed").
  add_custom_command(
    OUTPUT ${archive} ${ARG_MDIR}/${prefix}.h
    COMMAND ${TXGEN_VERILATOR_EXECUTABLE} ${mode} --build -O3 --x-assign fast --x-initial fast
            -Wall --top-module ${ARG_TOP} --prefix ${prefix} --Mdir ${ARG_MDIR}
            -MAKEFLAGS "OPT_FAST=-O3 OPT_GLOBAL=-O2 OPT_SLOW=-O1" ${ARG_SOURCES}
    DEPENDS ${ARG_SOURCES}
    COMMENT "Verilating ${ARG_TOP} (${flavour})"
    VERBATIM)
  add_custom_target(${TARGET}_build DEPENDS ${archive})
  if(ARG_AFTER)
    add_dependencies(${TARGET}_build ${ARG_AFTER})
  endif()
  add_library(${TARGET} INTERFACE)
  target_include_directories(${TARGET} SYSTEM INTERFACE ${ARG_MDIR})
  target_link_libraries(${TARGET} INTERFACE ${archive} ${runtime})
  add_dependencies(${TARGET} ${TARGET}_build)  # followed by every consumer
endfunction()

# _txgen_cosim_exe(EXE NAME BLOCK CONFIG [SOURCES <test.cpp...>])
# The GoogleTest executable of a block's co-simulation: the test sources
# (default: BLOCK_test.cpp of the calling directory), the harness library, the
# configuration as compile definitions, tests registered as NAME.<suite>.<test>.
function(_txgen_cosim_exe EXE NAME BLOCK CONFIG)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    set(ARG_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/${BLOCK}_test.cpp)
  endif()
  add_executable(${EXE} ${ARG_SOURCES})
  target_link_libraries(${EXE} PRIVATE txgen_verif GTest::gtest_main)
  target_compile_definitions(${EXE} PRIVATE
    TXGEN_COSIM_CONFIG="${CONFIG}" TXGEN_COSIM_CONFIG_NAME="${NAME}")
  target_compile_options(${EXE} PRIVATE ${TXGEN_WARNINGS})
  gtest_discover_tests(${EXE}
    TEST_PREFIX "${NAME}."
    PROPERTIES LABELS cosim
    DISCOVERY_TIMEOUT 60)
endfunction()

# _txgen_cosim_top(EXE NAME TOP SUBDIR RTL_FILES RTL_TARGET)
# Verilates module TOP of the generated RTL into a library linked to EXE.
function(_txgen_cosim_top EXE NAME TOP SUBDIR RTL_FILES RTL_TARGET)
  txgen_verilate(txgen_vl_${TOP} TOP ${TOP} MDIR ${CMAKE_BINARY_DIR}/cosim/${NAME}/${SUBDIR}
                 SOURCES ${RTL_FILES} AFTER ${RTL_TARGET})
  target_link_libraries(${EXE} PRIVATE txgen_vl_${TOP})
endfunction()

# txgen_add_bd_codec_cosim(NAME CONFIG_PATH [SOURCES <test.cpp...>])
# GoogleTest executable txgen_cosim_bd_codec_NAME co-simulating
# bd_codec_NAME_comp and _decomp (each its own Verilated model) against the
# golden model; tests are registered as NAME.<suite>.<test>, label `cosim`.
# SOURCES defaults to bd_codec_test.cpp of the calling directory.
function(txgen_add_bd_codec_cosim NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  txgen_bd_codec_rtl(${NAME} ${config} rtl_files rtl_target)
  set(exe txgen_cosim_bd_codec_${NAME})
  _txgen_cosim_exe(${exe} ${NAME} bd_codec ${config} ${ARGN})
  foreach(stage comp decomp)
    set(top bd_codec_${NAME}_${stage})
    _txgen_cosim_top(${exe} ${NAME} ${top} ${stage} "${rtl_files}" ${rtl_target})
    string(TOUPPER ${stage} STAGE)
    target_compile_definitions(${exe} PRIVATE
      TXGEN_${STAGE}_HEADER="V${top}.h" TXGEN_${STAGE}_CLASS=V${top})
  endforeach()
endfunction()

# txgen_add_lds_ctrl_cosim(NAME CONFIG_PATH [SOURCES <test.cpp...>])
# GoogleTest executable txgen_cosim_lds_ctrl_NAME co-simulating
# lds_ctrl_NAME_sys (controller + behavioural SRAM) and lds_ctrl_NAME_base_sys
# against the golden model; tests are registered as NAME.<suite>.<test>.
function(txgen_add_lds_ctrl_cosim NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  set(modules bd_codec_${NAME}_pack bd_codec_${NAME}_unpack lds_ctrl_${NAME} lds_ctrl_${NAME}_base
              lds_ctrl_${NAME}_sram lds_ctrl_${NAME}_sys lds_ctrl_${NAME}_base_sys)
  _txgen_block_rtl(${NAME} ${config} lds_ctrl ${CMAKE_BINARY_DIR}/cosim/${NAME}/rtl_lds "${modules}"
                   rtl_files rtl_target)
  set(exe txgen_cosim_lds_ctrl_${NAME})
  _txgen_cosim_exe(${exe} ${NAME} lds_ctrl ${config} ${ARGN})
  foreach(kind sys base_sys)
    _txgen_cosim_top(${exe} ${NAME} lds_ctrl_${NAME}_${kind} ${kind} "${rtl_files}" ${rtl_target})
  endforeach()
  target_compile_definitions(${exe} PRIVATE
    TXGEN_SYS_HEADER="Vlds_ctrl_${NAME}_sys.h" TXGEN_SYS_CLASS=Vlds_ctrl_${NAME}_sys
    TXGEN_BASE_HEADER="Vlds_ctrl_${NAME}_base_sys.h" TXGEN_BASE_CLASS=Vlds_ctrl_${NAME}_base_sys)
endfunction()

# txgen_add_dhsl_cosim(NAME CONFIG_PATH [SOURCES <test.cpp...>])
# GoogleTest executable txgen_cosim_dhsl_NAME co-simulating dhsl_NAME_sys
# against the golden model. The policy in the configuration decides which
# ports the top has (TXGEN_DHSL_REGS, TXGEN_DHSL_MONITORS).
function(txgen_add_dhsl_cosim NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  file(READ ${config} text)
  string(JSON policy GET "${text}" dhsl policy)
  set(regs 0)
  set(monitors 0)
  set(modules hsl router hsl_stage sys)
  if(policy STREQUAL "mgvm_coarse" OR policy STREQUAL "mgvm")
    set(regs 1)
    list(APPEND modules hsl_reg)
  endif()
  if(policy STREQUAL "mgvm")
    set(monitors 1)
    list(APPEND modules rtu_mon l2_mon cp)
  endif()
  set(module_names)
  foreach(module ${modules})
    list(APPEND module_names dhsl_${NAME}_${module})
  endforeach()
  _txgen_block_rtl(${NAME} ${config} dhsl ${CMAKE_BINARY_DIR}/cosim/${NAME}/rtl_dhsl "${module_names}"
                   rtl_files rtl_target)
  set(top dhsl_${NAME}_sys)
  set(exe txgen_cosim_dhsl_${NAME})
  _txgen_cosim_exe(${exe} ${NAME} dhsl ${config} ${ARGN})
  _txgen_cosim_top(${exe} ${NAME} ${top} dhsl_sys "${rtl_files}" ${rtl_target})
  target_compile_definitions(${exe} PRIVATE
    TXGEN_SYS_HEADER="V${top}.h" TXGEN_SYS_CLASS=V${top}
    TXGEN_DHSL_REGS=${regs} TXGEN_DHSL_MONITORS=${monitors})
  set_target_properties(${rtl_target} PROPERTIES  # for cmake/TxgenSystemC.cmake
    TXGEN_DEFINES "TXGEN_DHSL_REGS=${regs};TXGEN_DHSL_MONITORS=${monitors}")
endfunction()

# txgen_add_walk_sched_cosim(NAME CONFIG_PATH [SOURCES <test.cpp...>])
# GoogleTest executable txgen_cosim_walk_sched_NAME co-simulating
# walk_sched_NAME against the golden model.
function(txgen_add_walk_sched_cosim NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  set(top walk_sched_${NAME})
  _txgen_block_rtl(${NAME} ${config} walk_sched ${CMAKE_BINARY_DIR}/cosim/${NAME}/rtl_walk_sched "${top}"
                   rtl_files rtl_target)
  set(exe txgen_cosim_walk_sched_${NAME})
  _txgen_cosim_exe(${exe} ${NAME} walk_sched ${config} ${ARGN})
  _txgen_cosim_top(${exe} ${NAME} ${top} walk_sched "${rtl_files}" ${rtl_target})
  target_compile_definitions(${exe} PRIVATE TXGEN_SYS_HEADER="V${top}.h" TXGEN_SYS_CLASS=V${top})
endfunction()

# txgen_add_iommu_cosim(NAME CONFIG_PATH [SOURCES <test.cpp...>])
# GoogleTest executable txgen_cosim_iommu_NAME co-simulating iommu_NAME_sys
# (the L2-TLB and the IOMMU with its scheduler) against the golden model.
function(txgen_add_iommu_cosim NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  set(top iommu_${NAME}_sys)
  set(modules iommu_${NAME}_l2tlb iommu_${NAME}_walk_sched iommu_${NAME} ${top})
  _txgen_block_rtl(${NAME} ${config} iommu ${CMAKE_BINARY_DIR}/cosim/${NAME}/rtl_iommu "${modules}"
                   rtl_files rtl_target)
  set(exe txgen_cosim_iommu_${NAME})
  _txgen_cosim_exe(${exe} ${NAME} iommu ${config} ${ARGN})
  _txgen_cosim_top(${exe} ${NAME} ${top} iommu "${rtl_files}" ${rtl_target})
  target_compile_definitions(${exe} PRIVATE TXGEN_SYS_HEADER="V${top}.h" TXGEN_SYS_CLASS=V${top})
endfunction()

# txgen_add_icache_tx_cosim(NAME CONFIG_PATH [SOURCES <test.cpp...>])
# GoogleTest executable txgen_cosim_icache_tx_NAME co-simulating
# icache_tx_NAME_sys and icache_tx_NAME_base_sys against the golden model.
function(txgen_add_icache_tx_cosim NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  file(READ ${config} text)
  string(JSON per_line ERROR_VARIABLE no_per_line GET "${text}" icache_tx translations_per_line)
  set(modules)
  if(no_per_line OR per_line GREATER 1)
    list(APPEND modules bd_codec_${NAME}_pack bd_codec_${NAME}_unpack)
  endif()
  foreach(module "" _base _tag_sram _base_tag_sram _data_sram _sys _base_sys)
    list(APPEND modules icache_tx_${NAME}${module})
  endforeach()
  _txgen_block_rtl(${NAME} ${config} icache_tx ${CMAKE_BINARY_DIR}/cosim/${NAME}/rtl_icache_tx "${modules}"
                   rtl_files rtl_target)
  set(exe txgen_cosim_icache_tx_${NAME})
  _txgen_cosim_exe(${exe} ${NAME} icache_tx ${config} ${ARGN})
  foreach(kind sys base_sys)
    _txgen_cosim_top(${exe} ${NAME} icache_tx_${NAME}_${kind} icache_${kind} "${rtl_files}" ${rtl_target})
  endforeach()
  target_compile_definitions(${exe} PRIVATE
    TXGEN_SYS_HEADER="Vicache_tx_${NAME}_sys.h" TXGEN_SYS_CLASS=Vicache_tx_${NAME}_sys
    TXGEN_BASE_HEADER="Vicache_tx_${NAME}_base_sys.h" TXGEN_BASE_CLASS=Vicache_tx_${NAME}_base_sys)
endfunction()

# txgen_add_l1tlb_cosim(NAME CONFIG_PATH [SOURCES <test.cpp...>])
# GoogleTest executable txgen_cosim_l1tlb_NAME co-simulating l1tlb_NAME
# against the golden model.
function(txgen_add_l1tlb_cosim NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  set(top l1tlb_${NAME})
  _txgen_block_rtl(${NAME} ${config} l1tlb ${CMAKE_BINARY_DIR}/cosim/${NAME}/rtl_l1tlb "${top}_tlb;${top}"
                   rtl_files rtl_target)
  set(exe txgen_cosim_l1tlb_${NAME})
  _txgen_cosim_exe(${exe} ${NAME} l1tlb ${config} ${ARGN})
  _txgen_cosim_top(${exe} ${NAME} ${top} l1tlb "${rtl_files}" ${rtl_target})
  target_compile_definitions(${exe} PRIVATE TXGEN_SYS_HEADER="V${top}.h" TXGEN_SYS_CLASS=V${top})
endfunction()

# txgen_add_ata_cosim(NAME CONFIG_PATH [SOURCES <test.cpp...>])
# GoogleTest executable txgen_cosim_ata_NAME co-simulating ata_NAME against
# the golden model.
function(txgen_add_ata_cosim NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  set(top ata_${NAME})
  _txgen_block_rtl(${NAME} ${config} ata ${CMAKE_BINARY_DIR}/cosim/${NAME}/rtl_ata "${top}" rtl_files rtl_target)
  set(exe txgen_cosim_ata_${NAME})
  _txgen_cosim_exe(${exe} ${NAME} ata ${config} ${ARGN})
  _txgen_cosim_top(${exe} ${NAME} ${top} ata "${rtl_files}" ${rtl_target})
  target_compile_definitions(${exe} PRIVATE TXGEN_SYS_HEADER="V${top}.h" TXGEN_SYS_CLASS=V${top})
endfunction()

# _txgen_tx_path_tops(NAME CONFIG_PATH OUT_SYS OUT_BASE): the generated RTL of
# a tx_path configuration and its two Verilated simulation tops (the path and
# its baseline, each with every SRAM inside), once per NAME; sets the two
# INTERFACE libraries' names.
function(_txgen_tx_path_tops NAME CONFIG_PATH OUT_SYS OUT_BASE)
  set(sys txgen_vl_tx_path_${NAME}_sys)
  set(base txgen_vl_tx_path_${NAME}_base_sys)
  if(NOT TARGET ${sys})
    file(READ ${CONFIG_PATH} text)
    string(JSON per_line ERROR_VARIABLE no_per_line GET "${text}" tx_path icache_tx translations_per_line)
    set(modules bd_codec_${NAME}_lds_pack bd_codec_${NAME}_lds_unpack l1tlb_${NAME} l1tlb_${NAME}_tlb)
    if(no_per_line OR per_line GREATER 1)
      list(APPEND modules bd_codec_${NAME}_ic_pack bd_codec_${NAME}_ic_unpack)
    endif()
    foreach(module "" _base _tag_sram _base_tag_sram _data_sram)
      list(APPEND modules icache_tx_${NAME}_ic${module})
    endforeach()
    foreach(module "" _base _sram)
      list(APPEND modules lds_ctrl_${NAME}_lds${module})
    endforeach()
    foreach(module "" _base _cu _sys _base_sys)
      list(APPEND modules tx_path_${NAME}${module})
    endforeach()
    # with an iommu section: the L2-TLB and IOMMU, and the path joined to them
    string(JSON iommu ERROR_VARIABLE no_iommu GET "${text}" iommu)
    if(NOT no_iommu)
      list(APPEND modules iommu_${NAME}_l2tlb iommu_${NAME}_walk_sched iommu_${NAME} iommu_${NAME}_sys
                          tx_path_${NAME}_l2 tx_path_${NAME}_l2_sys)
    endif()
    _txgen_block_rtl(${NAME} ${CONFIG_PATH} tx_path ${CMAKE_BINARY_DIR}/cosim/${NAME}/rtl_tx_path "${modules}"
                     rtl_files rtl_target)
    foreach(kind sys base_sys)
      txgen_verilate(txgen_vl_tx_path_${NAME}_${kind} TOP tx_path_${NAME}_${kind}
                     MDIR ${CMAKE_BINARY_DIR}/cosim/${NAME}/path_${kind} SOURCES ${rtl_files} AFTER ${rtl_target})
    endforeach()
  endif()
  set(${OUT_SYS} ${sys} PARENT_SCOPE)
  set(${OUT_BASE} ${base} PARENT_SCOPE)
endfunction()

# txgen_add_tx_path_l2_cosim(NAME CONFIG_PATH [SOURCES <test.cpp...>])
# GoogleTest executable txgen_cosim_tx_path_l2_NAME co-simulating
# tx_path_NAME_l2_sys (the path with its generated L2-TLB and IOMMU inside;
# the configuration has an iommu section) against the golden model.
function(txgen_add_tx_path_l2_cosim NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  _txgen_tx_path_tops(${NAME} ${config} sys base)
  get_target_property(rtl_files txgen_rtl_tx_path_${NAME} TXGEN_RTL_FILES)
  set(top tx_path_${NAME}_l2_sys)
  set(exe txgen_cosim_tx_path_l2_${NAME})
  set(sources ${ARGN})
  if(NOT sources)
    set(sources SOURCES ${PROJECT_SOURCE_DIR}/tests/cosim/tx_path_l2_test.cpp)
  endif()
  _txgen_cosim_exe(${exe} ${NAME} tx_path ${config} ${sources})
  _txgen_cosim_top(${exe} ${NAME} ${top} path_l2 "${rtl_files}" txgen_rtl_tx_path_${NAME})
  target_compile_definitions(${exe} PRIVATE TXGEN_L2_HEADER="V${top}.h" TXGEN_L2_CLASS=V${top})
endfunction()

# Compile definitions naming the two Verilated tops of a tx_path configuration.
function(_txgen_tx_path_defines TARGET NAME)
  target_compile_definitions(${TARGET} PRIVATE
    TXGEN_SYS_HEADER="Vtx_path_${NAME}_sys.h" TXGEN_SYS_CLASS=Vtx_path_${NAME}_sys
    TXGEN_BASE_HEADER="Vtx_path_${NAME}_base_sys.h" TXGEN_BASE_CLASS=Vtx_path_${NAME}_base_sys)
endfunction()

# txgen_add_tx_path_cosim(NAME CONFIG_PATH [SOURCES <test.cpp...>])
# GoogleTest executable txgen_cosim_tx_path_NAME co-simulating
# tx_path_NAME_sys and tx_path_NAME_base_sys against the golden model.
function(txgen_add_tx_path_cosim NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  _txgen_tx_path_tops(${NAME} ${config} sys base)
  set(exe txgen_cosim_tx_path_${NAME})
  _txgen_cosim_exe(${exe} ${NAME} tx_path ${config} ${ARGN})
  target_link_libraries(${exe} PRIVATE ${sys} ${base})
  _txgen_tx_path_defines(${exe} ${NAME})
endfunction()

# txgen_add_tx_path_eval(NAME CONFIG_PATH)
# The trace evaluation of a tx_path configuration (verif/tx_path_eval.cpp, run
# by `txgen eval`): txgen_eval_rtl_tx_path_NAME replays through the Verilated
# path and baseline or the golden models, txgen_eval_model_tx_path_NAME
# through the golden models only (no Verilator run to build).
function(txgen_add_tx_path_eval NAME CONFIG_PATH)
  get_filename_component(config ${CONFIG_PATH} ABSOLUTE)
  foreach(engine model rtl)
    set(exe txgen_eval_${engine}_tx_path_${NAME})
    add_executable(${exe} ${PROJECT_SOURCE_DIR}/verif/tx_path_eval.cpp)
    target_link_libraries(${exe} PRIVATE txgen_verif)
    target_compile_options(${exe} PRIVATE ${TXGEN_WARNINGS})
    target_compile_definitions(${exe} PRIVATE TXGEN_EVAL_CONFIG="${config}")
  endforeach()
  _txgen_tx_path_tops(${NAME} ${config} sys base)
  set(exe txgen_eval_rtl_tx_path_${NAME})
  target_link_libraries(${exe} PRIVATE ${sys} ${base})
  target_compile_definitions(${exe} PRIVATE TXGEN_EVAL_RTL)
  _txgen_tx_path_defines(${exe} ${NAME})
endfunction()
