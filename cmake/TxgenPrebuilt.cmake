# The generator library, the golden models and the CLI of a built txgen tree
# (TXGEN_PREBUILT), imported instead of compiled again: a tree that `txgen
# cosim` or `txgen eval` configures then compiles only its harness, the
# Verilated RTL and its tests. `txgen cosim` passes the tree of the running
# txgen when that tree is up to date with these sources (gen/src/cli/generate.cpp).
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)

foreach(lib gen/libtxgen_gen.a model/libtxgen_model.a txgen)
  if(NOT EXISTS ${TXGEN_PREBUILT}/${lib})
    message(FATAL_ERROR "TXGEN_PREBUILT=${TXGEN_PREBUILT}: no ${lib} (build that tree first)")
  endif()
endforeach()

add_library(txgen_gen STATIC IMPORTED GLOBAL)
set_target_properties(txgen_gen PROPERTIES IMPORTED_LOCATION ${TXGEN_PREBUILT}/gen/libtxgen_gen.a)
target_include_directories(txgen_gen INTERFACE ${PROJECT_SOURCE_DIR}/gen/include)
target_link_libraries(txgen_gen INTERFACE nlohmann_json::nlohmann_json CLI11::CLI11 Threads::Threads ZLIB::ZLIB)
target_compile_definitions(txgen_gen INTERFACE TXGEN_VERSION="${PROJECT_VERSION}")

add_library(txgen_model STATIC IMPORTED GLOBAL)
set_target_properties(txgen_model PROPERTIES IMPORTED_LOCATION ${TXGEN_PREBUILT}/model/libtxgen_model.a)
target_include_directories(txgen_model INTERFACE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/gen/include)
target_compile_features(txgen_model INTERFACE cxx_std_17)

add_executable(txgen IMPORTED GLOBAL)
set_target_properties(txgen PROPERTIES IMPORTED_LOCATION ${TXGEN_PREBUILT}/txgen)
