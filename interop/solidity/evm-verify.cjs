// Compiles a Groth16 verifier contract with solc (the npm package: the Solidity compiler as
// WebAssembly), deploys it in an EVM (@ethereumjs/evm, whose BN254 precompiles are @noble/curves's)
// and calls its verifyProof with each calldata given: the text `zkey export soliditycalldata` prints.
//
//   node solidity/evm-verify.cjs <verifier.sol> <calldata.txt>...
//
// Prints one JSON object: {"compiler": "<solc version>", "results": [r, ...]}, one r per calldata file:
// true or false (what verifyProof returned), or "reverted: <why>" when the call did not return.
// Exit 1, with the reason on stderr, when the contract does not compile or deploy.
"use strict";
const fs = require("fs");
const solc = require("solc");

function fail(message) {
    process.stderr.write(message + "\n");
    process.exit(1);
}

function compile(source) {
    const input = {
        language: "Solidity",
        sources: { "verifier.sol": { content: source } },
        settings: { optimizer: { enabled: true, runs: 200 },
            outputSelection: { "*": { "*": ["evm.bytecode.object", "evm.methodIdentifiers"] } } },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input)));
    const errors = (output.errors || []).filter((e) => e.severity === "error");
    if (errors.length > 0) fail("solc: " + errors.map((e) => e.formattedMessage).join("\n"));
    const contract = output.contracts["verifier.sol"].Groth16Verifier;
    if (!contract) fail("solc: no contract Groth16Verifier in the source");
    const signature = Object.keys(contract.evm.methodIdentifiers).find((s) => s.startsWith("verifyProof("));
    if (!signature) fail("solc: Groth16Verifier has no verifyProof");
    return { bytecode: Buffer.from(contract.evm.bytecode.object, "hex"),
        selector: Buffer.from(contract.evm.methodIdentifiers[signature], "hex") };
}

// verifyProof's arguments are all static (uint[2], uint[2][2], uint[2], uint[n]): their ABI encoding is
// each number as one 32-byte word, in order, after the selector. A circuit without public signals has
// a verifyProof without the last argument.
function encodeCall(selector, calldataText) {
    const [a, b, c, signals] = JSON.parse("[" + calldataText + "]");
    const words = [...a, ...b.flat(), ...c, ...signals].map((hex) => {
        const n = BigInt(hex);
        if (n >= 1n << 256n) throw new Error("not a 256-bit word: " + hex);
        return Buffer.from(n.toString(16).padStart(64, "0"), "hex");
    });
    return Buffer.concat([selector, ...words]);
}

async function main() {
    const [verifierFile, ...calldataFiles] = process.argv.slice(2);
    if (!verifierFile || calldataFiles.length === 0) fail("usage: evm-verify.cjs <verifier.sol> <calldata.txt>...");
    const { bytecode, selector } = compile(fs.readFileSync(verifierFile, "utf8"));
    const { createEVM } = await import("@ethereumjs/evm");
    const evm = await createEVM();
    const deployed = await evm.runCall({ data: bytecode, gasLimit: 30000000n });
    if (deployed.execResult.exceptionError || !deployed.createdAddress) {
        fail("deployment failed: " + (deployed.execResult.exceptionError || {}).error);
    }
    const results = [];
    for (const file of calldataFiles) {
        const data = encodeCall(selector, fs.readFileSync(file, "utf8").trim());
        const call = await evm.runCall({ to: deployed.createdAddress, data, gasLimit: 30000000n });
        const error = call.execResult.exceptionError;
        const value = Buffer.from(call.execResult.returnValue);
        if (error) {
            results.push("reverted: " + error.error);
        } else if (value.length === 32 && value.readUInt8(31) <= 1 && value.subarray(0, 31).every((x) => x === 0)) {
            results.push(value.readUInt8(31) === 1);
        } else {
            results.push("reverted: returned " + value.toString("hex"));
        }
    }
    process.stdout.write(JSON.stringify({ compiler: solc.version(), results }) + "\n");
}

main().catch((e) => fail(e.stack || String(e)));
