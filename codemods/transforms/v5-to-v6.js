'use strict';
// ergraph-migrate's v5-to-v6 step as a jscodeshift transform (step.js says how it runs).
module.exports = require('./step.js')('v5-to-v6');
