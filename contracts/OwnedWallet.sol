// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * A minimal ERC-1271 wallet for tests: one owner EOA, rotatable by the owner.
 * isValidSignature accepts a 65-byte r || s || v ECDSA signature by the current owner
 * over the hash exactly as given (the caller passes the EIP-191 personal-message hash),
 * with v of 0, 1, 27 or 28 and s in the lower half of the curve order.
 *
 * No domain separation: one owner's signature is valid for every OwnedWallet that owner
 * controls (real smart accounts wrap the hash, ERC-7739 style). Test use only.
 */
contract OwnedWallet {
    bytes4 internal constant ERC1271_MAGIC = 0x1626ba7e;
    bytes4 internal constant ERC1271_INVALID = 0xffffffff;
    /// secp256k1 n / 2: a larger s is the malleated twin and is refused.
    uint256 internal constant HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    address public owner;

    event OwnerChanged(address indexed previousOwner, address indexed newOwner);

    constructor(address initialOwner) {
        owner = initialOwner;
        emit OwnerChanged(address(0), initialOwner);
    }

    function setOwner(address newOwner) external {
        require(msg.sender == owner, "OwnedWallet: caller is not the owner");
        emit OwnerChanged(owner, newOwner);
        owner = newOwner;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return ERC1271_INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_N) return ERC1271_INVALID;
        address signer = ecrecover(hash, v, r, s);
        if (signer != address(0) && signer == owner) return ERC1271_MAGIC;
        return ERC1271_INVALID;
    }
}
