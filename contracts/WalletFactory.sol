// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "./OwnedWallet.sol";

/**
 * CREATE2 factory of OwnedWallet, for ERC-6492 counterfactual signatures in tests.
 * deploy is idempotent: the ERC-6492 validator calls the factory again when a deployed
 * wallet's inner signature fails, and a second CREATE2 to the same address would revert.
 */
contract WalletFactory {
    event WalletDeployed(address indexed wallet, address indexed owner, bytes32 salt);

    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        wallet = addressOf(owner, salt);
        if (wallet.code.length > 0) return wallet;
        OwnedWallet created = new OwnedWallet{salt: salt}(owner);
        require(address(created) == wallet, "WalletFactory: address mismatch");
        emit WalletDeployed(wallet, owner, salt);
    }

    /// keccak256(0xff ++ factory ++ salt ++ keccak256(creationCode ++ abi.encode(owner)))[12:]
    function addressOf(address owner, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(OwnedWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }
}
