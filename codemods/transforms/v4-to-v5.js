'use strict';
// ergraph-migrate's v4-to-v5 step as a jscodeshift transform (step.js says how it runs).
module.exports = require('./step.js')('v4-to-v5');
