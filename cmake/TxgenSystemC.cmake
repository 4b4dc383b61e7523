# SystemC lock-step tests (verif/sc/, tests/cosim/sc_test.cpp): a block's
# Verilated `--sc` model against its golden model's sc_module.
# Needs cmake/TxgenCosim.cmake (txgen_verilate, the RTL targets) and the
# SystemC runtime libraries (verif/CMakeLists.txt, TXGEN_BUILD_SYSTEMC).

# Upper camel case of a block name: walk_sched -> WalkSched.
function(_txgen_camel_case NAME OUT)
  string(REPLACE "_" ";" parts ${NAME})
  set(camel "")
  foreach(part ${parts})
    string(SUBSTRING ${part} 0 1 first)
    string(SUBSTRING ${part} 1 -1 rest)
    string(TOUPPER ${first} first)
    string(APPEND camel ${first}${rest})
  endforeach()
  set(${OUT} ${camel} PARENT_SCOPE)
endfunction()

# The module a block's SystemC view wraps (verif/sc/BLOCK.h): the simulation
# top with the SRAMs inside where the block has one, bd_codec's decompressor.
function(_txgen_systemc_top BLOCK NAME OUT)
  if(BLOCK STREQUAL "bd_codec")
    set(top bd_codec_${NAME}_decomp)
  elseif(BLOCK MATCHES "^(walk_sched|l1tlb|ata)$")
    set(top ${BLOCK}_${NAME})
  else()
    set(top ${BLOCK}_${NAME}_sys)
  endif()
  set(${OUT} ${top} PARENT_SCOPE)
endfunction()

# txgen_add_systemc_cosim(BLOCK NAME)
# Executable txgen_sc_BLOCK_NAME: tests/cosim/sc_test.cpp with the
# environment verif/sc/BLOCK_env.h (spec <Block>ScSpec) on the block's top of
# configuration NAME, verilated with --sc. Test NAME.SystemC.RandomTraffic,
# labels cosim and systemc. The configuration's C++ co-simulation
# (txgen_add_BLOCK_cosim) must come first: it declares the RTL generation.
function(txgen_add_systemc_cosim BLOCK NAME)
  set(rtl_target txgen_rtl_${BLOCK}_${NAME})
  if(NOT TARGET ${rtl_target})
    message(FATAL_ERROR "txgen_add_systemc_cosim(${BLOCK} ${NAME}): "
                        "declare txgen_add_${BLOCK}_cosim(${NAME} ...) first")
  endif()
  get_target_property(rtl_files ${rtl_target} TXGEN_RTL_FILES)
  get_target_property(config ${rtl_target} TXGEN_CONFIG)
  # the l1tlb and tx_path views have no instruction-ID ports (docs/verification.md, SystemC)
  file(READ ${config} sc_text)
  string(JSON sc_iid ERROR_VARIABLE sc_no_iid GET "${sc_text}" l1tlb iid_bits)
  string(JSON sc_iommu ERROR_VARIABLE sc_no_iommu GET "${sc_text}" iommu)
  if((BLOCK STREQUAL "l1tlb" AND NOT sc_no_iid AND sc_iid GREATER 0) OR
     (BLOCK STREQUAL "tx_path" AND NOT sc_no_iommu))
    message(FATAL_ERROR "txgen_add_systemc_cosim(${BLOCK} ${NAME}): the SystemC view of ${BLOCK} has no "
                        "instruction-ID ports; use a configuration without l1tlb.iid_bits / an iommu section")
  endif()
  get_target_property(defines ${rtl_target} TXGEN_DEFINES)  # a policy's ports (dhsl)
  if(NOT defines)
    set(defines "")
  endif()
  _txgen_systemc_top(${BLOCK} ${NAME} top)
  set(vl txgen_vl_sc_${top})
  txgen_verilate(${vl} SYSTEMC TOP ${top} MDIR ${CMAKE_BINARY_DIR}/cosim/${NAME}/${top}_sc
                 SOURCES ${rtl_files} AFTER ${rtl_target})
  _txgen_camel_case(${BLOCK} camel)
  set(exe txgen_sc_${BLOCK}_${NAME})
  add_executable(${exe} ${PROJECT_SOURCE_DIR}/tests/cosim/sc_test.cpp)
  target_compile_definitions(${exe} PRIVATE
    TXGEN_SYS_HEADER="V${top}.h" TXGEN_SYS_CLASS=V${top}
    TXGEN_SC_ENV_HEADER="sc/${BLOCK}_env.h" TXGEN_SC_SPEC=${camel}ScSpec
    TXGEN_COSIM_CONFIG="${config}" TXGEN_COSIM_CONFIG_NAME="${NAME}" ${defines})
  target_link_libraries(${exe} PRIVATE ${vl} txgen_verif_sc GTest::gtest)
  target_compile_options(${exe} PRIVATE ${TXGEN_WARNINGS})
  set(test ${NAME}.SystemC.RandomTraffic)
  add_test(NAME ${test} COMMAND ${exe})
  set_tests_properties(${test} PROPERTIES LABELS "cosim;systemc" ENVIRONMENT SC_COPYRIGHT_MESSAGE=DISABLE)
endfunction()
